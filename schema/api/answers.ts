import { z } from "zod";
import { APPOINTMENT_STATUSES, APPOINTMENT_TYPES } from "../validation/appointment";
import { USER_TYPES } from "../validation/user";
import { ACCESS_LEVELS, USER_STATUSES } from "../validation/userDirectory";
import type {
  PermissionCheckResult,
  PublicBranding,
  SafeUser,
  SecurityChallenge,
  TwoFactorChallenge,
} from "./user";

// The REST shims' answers as zod schemas (issue 22): the OpenAPI document of /api is generated from
// them and from the input schemas of ../validation, and the contract tests validate real answers
// against it. Each answer is strict (a field nobody described fails the contract); the type checks
// at the end hold each schema equal to the interface the shims and the web client use.

const isoInstant = z.string().meta({ format: "date-time" });

/** A user as any answer may show it (SafeUser): never a password, hash, token or security answer. */
export const safeUserSchema = z.strictObject({
  id: z.number().int(),
  uniqueId: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  companyName: z.string().nullable(),
  userType: z.enum(USER_TYPES),
  notes: z.string().nullable(),
  createdAt: isoInstant,
  lastLoginAt: isoInstant.nullable(),
  accessLevel: z.enum(ACCESS_LEVELS),
  esrtSynced: z.boolean(),
  userStatus: z.enum(USER_STATUSES),
  emailVerified: z.boolean(),
  securityLevel: z.enum(["standard", "enhanced"]),
  permissions: z.array(z.string()),
  needsVerification: z.literal(true).optional(),
  needsTwoFactorEnrolment: z.literal(true).optional(),
  securityQuestionsSet: z.boolean(),
});

/** POST /api/login for an enhanced-security user: the question to answer before the session. */
export const securityChallengeSchema = z.strictObject({
  needsSecurityAnswer: z.literal(true),
  userId: z.number().int(),
  question: z.strictObject({ index: z.number().int(), text: z.string() }),
});

/** POST /api/login for a user with a second factor: which factors they hold. */
export const twoFactorChallengeSchema = z.strictObject({
  twoFactorRequired: z.literal(true),
  methods: z.array(z.string()),
});

/** What a sign-in step answers: the signed-in user, or the next step. */
export const signInAnswerSchema = z.union([
  safeUserSchema,
  securityChallengeSchema,
  twoFactorChallengeSchema,
]);

/** GET /api/auth/check-permissions (spec §3, Permission check result). */
export const permissionCheckResultSchema = z.strictObject({
  isAdmin: z.boolean(),
  hasPermissions: z.boolean(),
  exactPermissions: z.array(z.string()),
  message: z.string(),
});

/**
 * Every REST error body: a message always, the error's code when the error mapper answered (a path
 * nothing answers, the same-origin and JSON-only guards give the message alone), and the failure's
 * client-safe details beside them.
 */
/** The codes an error answer carries (services/shared/errors.ts AppError's codes). */
export const APP_ERROR_CODES = [
  "BAD_REQUEST",
  "VALIDATION_FAILED",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE",
  "RATE_LIMITED",
  "UNAVAILABLE",
  "INTERNAL",
] as const;

export const apiErrorBodySchema = z.looseObject({
  message: z.string(),
  code: z.enum(APP_ERROR_CODES).optional(),
  requestId: z.string().optional(),
  status: z.string().optional(),
  needsVerification: z.boolean().optional(),
  error: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** A confirmation with nothing more to say. */
export const messageAnswerSchema = z.strictObject({ message: z.string() });

/** GET /api/branding. */
export const publicBrandingSchema = z.strictObject({
  title: z.string(),
  logoUrl: z.string(),
  supportPhone: z.string(),
  consultationEmail: z.string(),
  businessHours: z.string(),
});

/** GET /api/server-config (spec §3, Server config). */
export const serverConfigSchema = z.strictObject({
  port: z.number().int(),
  proAppUrl: z.string(),
  environment: z.string(),
  serverTime: isoInstant,
});

/** GET /api/password-policy. */
export const passwordPolicySchema = z.strictObject({ minLength: z.number().int() });

/** GET /api/session-check. */
export const sessionCheckSchema = z.strictObject({ active: z.literal(true), expiresAt: isoInstant });

/** POST /api/verify-email. */
export const emailVerifiedSchema = z.strictObject({ message: z.string(), emailVerified: z.literal(true) });

/** GET /api/security-questions/{userId}: the questions, never the answers. */
export const securityQuestionsReadSchema = z.strictObject({
  userId: z.number().int(),
  questions: z.array(z.string()),
});

/** POST /api/verify-security-answers: a new session's user, or (signed in already) a confirmation. */
export const securityAnswersAnswerSchema = z.union([
  safeUserSchema,
  z.strictObject({ verified: z.literal(true) }),
]);

/** POST /api/user/notes. */
export const notesSavedSchema = z.strictObject({
  notes: z.string(),
  wordCount: z.number().int(),
  message: z.string(),
});

/** GET /api/users/by-uniqueid/{uniqueId}: the card the console shows. */
export const userCardSchema = z.strictObject({
  id: z.number().int(),
  uniqueId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string().nullable(),
  esrtSynced: z.boolean(),
});

/** POST /api/esrt/ack: the user's sync state after the acknowledgement. */
export const ackResultSchema = z.strictObject({
  uniqueId: z.string(),
  acknowledgedVersion: z.number().int(),
  latestVersion: z.number().int(),
  esrtSynced: z.boolean(),
});

/** An appointment as its client and the administrators see it. */
export const appointmentViewSchema = z.strictObject({
  id: z.number().int(),
  userId: z.number().int(),
  appointmentType: z.enum(APPOINTMENT_TYPES),
  dateTime: isoInstant,
  status: z.enum(APPOINTMENT_STATUSES),
  notes: z.string().nullable(),
  cancelReason: z.string().nullable(),
  timeZone: z.string().nullable(),
  sequence: z.number().int(),
  createdAt: isoInstant,
  updatedAt: isoInstant,
  client: z.strictObject({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    companyName: z.string().nullable(),
  }),
});

/** GET /api/appointments/availability: one business day and its slots. */
export const availabilityDaySchema = z.strictObject({
  date: z.string().meta({ format: "date" }),
  slots: z.array(
    z.strictObject({
      dateTime: isoInstant,
      time: z.string(),
      label: z.string(),
      taken: z.boolean(),
    }),
  ),
});

/** A bulk job (here the client import's) as the admin pages show it. */
export const userJobViewSchema = z.strictObject({
  id: z.number().int(),
  kind: z.string(),
  action: z.string(),
  value: z.string().nullable(),
  status: z.enum(["queued", "running", "done", "failed"]),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  selection: z.string(),
  error: z.string().nullable(),
  actorId: z.number().int(),
  createdAt: isoInstant,
  startedAt: isoInstant.nullable(),
  finishedAt: isoInstant.nullable(),
});

/** POST /api/admin/users/import: every row's errors, and the job that creates the accepted rows. */
export const importReportSchema = z.strictObject({
  dryRun: z.boolean(),
  totalRows: z.number().int(),
  acceptedRows: z.number().int(),
  rejectedRows: z.number().int(),
  errors: z.array(z.strictObject({ row: z.number().int(), field: z.string(), message: z.string() })),
  job: userJobViewSchema.nullable(),
});

/** Whether A and B are the same type (each assignable to the other). */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when every type given is `true`. */
export type AllTrue<T extends true[]> = T;

/** The schemas above equal the interfaces of ./user (a field added to one and not the other fails lint). */
export type AnswerSchemasMatchInterfaces = AllTrue<
  [
    SameType<z.infer<typeof safeUserSchema>, SafeUser>,
    SameType<z.infer<typeof securityChallengeSchema>, SecurityChallenge>,
    SameType<z.infer<typeof twoFactorChallengeSchema>, TwoFactorChallenge>,
    SameType<z.infer<typeof permissionCheckResultSchema>, PermissionCheckResult>,
    SameType<z.infer<typeof publicBrandingSchema>, PublicBranding>,
  ]
>;
