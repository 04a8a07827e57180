import type { AppointmentActor } from "@services/appointment";
import type { DocumentActor } from "@services/document";
import type { EmailActor, EmailSettingsActor } from "@services/email";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import type { BrandingActor, SecurityActor, SessionLimit } from "@services/user";
import type { Response } from "express";
import { isClientType, type Permission, permissionsOf } from "./permissions";

/**
 * The caller of a request, resolved once from the session's user (GraphQL: `ctx.currentUser`;
 * REST: {@link callerOf}). Every service's actor type accepts it as it is.
 */
export interface Actor
  extends DocumentActor,
    AppointmentActor,
    EmailActor,
    EmailSettingsActor,
    BrandingActor,
    SecurityActor {
  id: number;
  /** "First Last", trimmed: audit rows, "updated by", document history */
  name: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  uniqueId: string;
  userType: UserType;
  /** from the one matrix (./permissions) */
  permissions: readonly Permission[];
  /** client, mainAdmin or userAdmin: may hold documents */
  isClient: boolean;
  /** read:all_documents */
  readAll: boolean;
  /** approve:documents */
  approve: boolean;
  /** manage:appointments */
  manages: boolean;
}

const built = new WeakMap<User, Actor>();

/** The actor of a signed-in user (built once per loaded user row). */
export function actorOf(user: User): Actor {
  const cached = built.get(user);
  if (cached) return cached;
  const permissions = permissionsOf(user.userType);
  const actor: Actor = {
    id: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    email: user.email,
    uniqueId: user.uniqueId,
    userType: user.userType,
    permissions,
    isClient: isClientType(user.userType),
    readAll: permissions.includes("read:all_documents"),
    approve: permissions.includes("approve:documents"),
    manages: permissions.includes("manage:appointments"),
  };
  built.set(user, actor);
  return actor;
}

/** Whether `actor` holds `permission`. */
export function holds(actor: Pick<Actor, "permissions"> | null, permission: Permission): boolean {
  return actor?.permissions.includes(permission) ?? false;
}

export const UNAUTHORIZED_MESSAGE = "Unauthorized - Please log in";
export const FORBIDDEN_MESSAGE = "You don't have the necessary permissions to access this area.";

/** What a session limited to verification is told when it asks for anything else (issue 20). */
export const VERIFY_EMAIL_FIRST_MESSAGE =
  "Please verify your email to continue. Check your inbox for the verification link.";

/**
 * The refusal of a session limited to verification (its user's email is unverified while the
 * settings require a verified one): 403 with needsVerification, on both surfaces.
 */
export function verifyEmailFirst(): AppError {
  return new AppError("FORBIDDEN", VERIFY_EMAIL_FIRST_MESSAGE, { details: { needsVerification: true } });
}

/** What two-factor sign-in's enrolment page says to a session that asks for anything else (issue 20). */
export const ENROL_TWO_FACTOR_FIRST_MESSAGE = "Set up two-factor sign-in to continue.";

/**
 * The refusal of a session limited to enrolling a second factor (the settings require one of its
 * user, who holds none): 403 with needsTwoFactorEnrolment, on both surfaces.
 */
export function enrolTwoFactorFirst(): AppError {
  return new AppError("FORBIDDEN", ENROL_TWO_FACTOR_FIRST_MESSAGE, {
    details: { needsTwoFactorEnrolment: true },
  });
}

/** The refusal of a limited session, by what it is limited to. */
export function limitRefusal(limit: SessionLimit): AppError {
  return limit === "verification" ? verifyEmailFirst() : enrolTwoFactorFirst();
}

/** What the REST request's session is limited to (modules/identity/session.ts), or null. */
export function sessionLimit(res: Response): SessionLimit | null {
  const limited: unknown = res.locals.limited;
  return limited && typeof limited === "object" ? (limited as { to: SessionLimit }).to : null;
}

/**
 * The signed-in caller, or a refusal.
 * @throws AppError UNAUTHENTICATED when nobody is signed in.
 */
export function signedIn(actor: Actor | null): Actor {
  if (!actor) throw new AppError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE);
  return actor;
}

/**
 * The signed-in caller holding `permission`.
 * @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN (`message`) without it.
 */
export function permitted(actor: Actor | null, permission: Permission, message = FORBIDDEN_MESSAGE): Actor {
  const caller = signedIn(actor);
  if (!holds(caller, permission)) throw new AppError("FORBIDDEN", message);
  return caller;
}

/** The caller of a REST request: its session's user (loaded once by loadSessionUser) as an actor, or null. */
export function callerOf(res: Response): Actor | null {
  const user: unknown = res.locals.user;
  return user && typeof user === "object" ? actorOf(user as User) : null;
}

/**
 * The signed-in caller of a REST request.
 * @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN (needsVerification,
 * needsTwoFactorEnrolment) when the session is limited.
 */
export function requireCaller(res: Response): Actor {
  const limit = sessionLimit(res);
  if (limit) throw limitRefusal(limit);
  return signedIn(callerOf(res));
}

/**
 * The signed-in caller of a REST request holding `permission`.
 * @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN (`message`) without it, or
 * (needsVerification) when the session is limited to verification.
 */
export function requirePermitted(res: Response, permission: Permission, message?: string): Actor {
  const limit = sessionLimit(res);
  if (limit) throw limitRefusal(limit);
  return permitted(callerOf(res), permission, message);
}
