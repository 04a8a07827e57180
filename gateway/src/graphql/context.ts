import { type Actor, limitRefusal, signedIn } from "@gateway/auth/actor";
import { clientIp, type IdentityDeps } from "@gateway/modules/identity/session";
import type { SystemProbes } from "@services/diagnostics";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { SessionLimit } from "@services/user";
import type { Request, Response } from "express";

/** What every resolver receives. `currentUser` is null until a session carries a user. */
export interface GraphQLContext {
  req: Request;
  res: Response;
  config: Config;
  db: Db;
  requestId: string;
  /** sessions, rate limits and the rest the identity operations need */
  identity: IdentityDeps;
  /** the caller, resolved once per request from the session (../auth/actor) */
  currentUser: Actor | null;
  /**
   * what the session is limited to (currentUser is null): verifying its user's email, or enrolling
   * a second factor; every field that needs a signed-in user refuses it with needsVerification or
   * needsTwoFactorEnrolment (issue 20). Null for a full session or none.
   */
  limitedTo: SessionLimit | null;
  /** the process's backing services, for the testing tools' health checks */
  probes: SystemProbes;
}

/**
 * The signed-in caller. @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN
 * (needsVerification) when the session is limited to verification.
 */
export function caller(ctx: GraphQLContext): Actor {
  if (ctx.limitedTo) throw limitRefusal(ctx.limitedTo);
  return signedIn(ctx.currentUser);
}

/** Where the request came from, for audit rows: the client's address and the request's id. */
export function originOf(ctx: GraphQLContext): { ip: string; requestId: string } {
  return { ip: clientIp(ctx.req), requestId: ctx.requestId };
}

/** The caller's id and address, as the audited use cases of the Pro-app sync take them. */
export function actedBy(ctx: GraphQLContext): { actorId: number; ip: string } {
  return { actorId: caller(ctx).id, ip: clientIp(ctx.req) };
}

/**
 * The database, the signed-in caller and the request's address (null when unknown), as the audited
 * settings changes take them. @throws AppError UNAUTHENTICATED when nobody is signed in.
 */
export function settingsChangeBy(ctx: GraphQLContext): { db: Db; actor: Actor; ip: string | null } {
  return { db: ctx.db, actor: caller(ctx), ip: ctx.req.ip ?? null };
}
