import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from "@asteasolutions/zod-to-openapi";
import {
  type AllTrue,
  ackResultSchema,
  apiErrorBodySchema,
  appointmentViewSchema,
  availabilityDaySchema,
  emailVerifiedSchema,
  importReportSchema,
  messageAnswerSchema,
  notesSavedSchema,
  passwordPolicySchema,
  permissionCheckResultSchema,
  publicBrandingSchema,
  type SameType,
  safeUserSchema,
  securityAnswersAnswerSchema,
  securityChallengeSchema,
  securityQuestionsReadSchema,
  serverConfigSchema,
  sessionCheckSchema,
  twoFactorChallengeSchema,
  userCardSchema,
  userJobViewSchema,
} from "@schema/api/answers";
import { permissions } from "@schema/api/permissions";
import { type AckResult, apiAckSchema } from "@schema/esrt/contract";
import {
  appointmentDateTimeSchema,
  bookingSchema,
  businessDateSchema,
  cancelReasonSchema,
} from "@schema/validation/appointment";
import { auditFilterSchema } from "@schema/validation/audit";
import { idSchema } from "@schema/validation/primitives";
import { passkeySignInSchema, secondFactorSchema } from "@schema/validation/twoFactor";
import {
  changePasswordSchema,
  loginSchema,
  notesSchema,
  registrationSchema,
  resetConfirmSchema,
  resetRequestSchema,
  roleSwitchSchema,
  securityAnswersSchema,
  securityQuestionsSchema,
  verifyEmailSchema,
} from "@schema/validation/user";
import {
  ACCESS_LEVELS,
  SORT_DIRECTIONS,
  USER_SORTS,
  USER_STATUSES,
  userFilterSchema,
} from "@schema/validation/userDirectory";
import { type AppointmentView, type AvailabilityDay, adminListFiltersSchema } from "@services/appointment";
import type { ImportReport, UserCard, UserJobView } from "@services/user";
import { z } from "zod";
import { SESSION_COOKIE } from "../../http/session";
import { resendVerificationSchema, userIdParam } from "../identity/account.rest";
import { ROLE_SWITCH_PATH } from "../identity/roleSwitch.rest";
import { uniqueIdParam } from "../sync/esrt.rest";
import { importBodySchema } from "../users/userImport.rest";

// The OpenAPI 3.1 document of every /api route (issue 22), generated from the shared zod schemas:
// the very input schemas the shims parse with (schema/validation, and the few a shim declares) and
// the answers of schema/api/answers.ts. Each operation states who may call it (public, the session
// cookie, or also the Pro app's API key), its answer, and the errors it can give; the refusals every
// route of a kind shares (a Bearer key where none is taken, the same-origin and JSON-only guards, an
// unreadable body or path, the session store away) are added by kind, so no route forgets one.
// ./apiDocs.rest.test.ts holds it equal to the router, and the fuzz and permission tests
// validate their answers against it.

/** Where the document and its reference page are served. */
export const OPENAPI_JSON_PATH = "/api/openapi.json";
export const API_DOCS_PATH = "/api/docs";

/** Who may call an operation: anyone, a signed-in session, or a session or the Pro app's API key. */
type Access = "public" | "session" | "sessionOrKey";

type Status = number;

interface Operation {
  method: "get" | "post" | "patch" | "delete" | "head" | "options";
  /** the OpenAPI path (`{param}`) */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** a JSON body (the shim's schema) */
  body?: z.ZodType;
  /** the success answer(s) */
  ok: Record<Status, ResponseConfig>;
  /** the errors this operation gives beyond those of its kind, with what they mean (true: the usual words) */
  errors?: Record<Status, string | true>;
  /** answers are not the JSON error body (tus uploads: text/plain) */
  plainErrors?: true;
  /** not behind the JSON-only and same-origin guard (tus: its own same-origin check) */
  unguarded?: true;
  /** answered from the process alone: no database, no session store (so never their 503) */
  selfContained?: true;
}

const TAGS = [
  {
    name: "Session",
    description: "Signing in and out, registration, the current user and permission checks",
  },
  { name: "Account", description: "Password reset, email verification, security questions, notes, password" },
  { name: "Pro app", description: "The two routes the Pro app (ESRT Pro) calls with its API key" },
  { name: "Appointments", description: "Booking, availability and the administrators' appointment actions" },
  { name: "Documents", description: "Uploads over tus 1.0, downloads and previews" },
  { name: "Administration", description: "CSV exports and the client import" },
  { name: "Public", description: "What any page may read before signing in" },
  { name: "Reference", description: "This document and its reference page" },
];

/** The JSON answer `schema` with `description`. */
function json(description: string, schema: z.ZodType): ResponseConfig {
  return { description, content: { "application/json": { schema } } };
}

/** Answers of another media type; `schema` defaults to any bytes. */
function media(description: string, types: string[]): ResponseConfig {
  return {
    description,
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: "string" as const } }])),
  };
}

const ERROR_TEXT: Record<Status, string> = {
  400: "Invalid input (the first problem's message; `errors` holds every field's), malformed JSON or a malformed URL",
  401: "Not signed in, or a Bearer API key on a route that takes none",
  403: "Not allowed: missing permission, a session limited to verifying its email or enrolling a second factor (`needsVerification`, `needsTwoFactorEnrolment`), or a cross-site request",
  404: "No such resource (or one the caller may not know of)",
  409: "Conflicts with the resource's current state",
  413: "The request body is too large",
  415: "The body is not JSON (Content-Type: application/json)",
  429: "Too many attempts; Retry-After says when to try again",
  500: "Internal server error: the body carries `requestId` to quote; the details are in the log",
  503: "The database or the session store is unavailable; Retry-After says when to try again",
};

/** The refusals every operation of its kind can give. */
function errorsOfKind(op: Operation): Status[] {
  const statuses: Status[] = [401, 500];
  if (!op.selfContained) statuses.push(503);
  if (op.access !== "public") statuses.push(403);
  if (op.method === "post" && !op.unguarded) statuses.push(400, 403, 413, 415);
  if (op.params) statuses.push(400, 404);
  if (op.query) statuses.push(400);
  return statuses;
}

/** The operation's `responses`: its answers, its own errors and those of its kind. */
function responsesOf(op: Operation): Record<Status, ResponseConfig> {
  const responses: Record<Status, ResponseConfig> = { ...op.ok };
  const own = op.errors ?? {};
  const statuses = new Set([...errorsOfKind(op), ...Object.keys(own).map(Number)]);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    if (responses[status]) continue;
    const given = own[status];
    const description = typeof given === "string" ? given : (ERROR_TEXT[status] ?? "Refused");
    if (!op.plainErrors) responses[status] = json(description, ApiError);
    else if (status !== 401) responses[status] = media(description, ["text/plain"]);
    else {
      // a Bearer key is refused before the tus handler, in JSON
      const plain = media(`${description}; a Bearer API key is refused in JSON`, ["text/plain"]);
      responses[status] = {
        ...plain,
        content: { ...plain.content, "application/json": { schema: ApiError } },
      };
    }
  }
  return responses;
}

const SECURITY: Record<Access, RouteConfig["security"]> = {
  public: [],
  session: [{ sessionCookie: [] }],
  sessionOrKey: [{ sessionCookie: [] }, { proAppKey: [] }],
};

// ---- the operations --------------------------------------------------------------------------------

// Answers shown as named components (zod's .meta ids; each made once, as the global registry wants)
const ApiError = apiErrorBodySchema.meta({ id: "ApiError" });
const SafeUser = safeUserSchema.meta({ id: "SafeUser" });
const Appointment = appointmentViewSchema.meta({ id: "Appointment" });
const SignInAnswer = z
  .union([
    SafeUser,
    securityChallengeSchema.meta({ id: "SecurityChallenge" }),
    twoFactorChallengeSchema.meta({ id: "TwoFactorChallenge" }),
  ])
  .meta({ id: "SignInAnswer" });

const idParam = z.object({ id: idSchema });

const checkPermissionsQuery = z.object({
  permissions: z
    .array(z.string())
    .optional()
    .meta({
      description: `Repeated once per permission asked about (spec §7), e.g. ${permissions.join(", ")}`,
    }),
});

const availabilityQuery = z.object({ from: businessDateSchema, to: businessDateSchema.optional() });

/** GET /api/admin/users/export.csv's query: the directory's filter and sort as query parameters. */
const userExportQuery = z.object({
  q: userFilterSchema.shape.q,
  userTypes: userFilterSchema.shape.userTypes.meta({ description: "Repeated, or comma-separated" }),
  userStatuses: z
    .array(z.enum(USER_STATUSES))
    .optional()
    .meta({ description: "Repeated, or comma-separated" }),
  accessLevels: z
    .array(z.enum(ACCESS_LEVELS))
    .optional()
    .meta({ description: "Repeated, or comma-separated" }),
  emailVerified: z.enum(["true", "false"]).optional(),
  esrtSynced: z.enum(["true", "false"]).optional(),
  createdFrom: z.string().meta({ format: "date-time" }).optional(),
  createdTo: z.string().meta({ format: "date-time" }).optional(),
  lastLoginFrom: z.string().meta({ format: "date-time" }).optional(),
  lastLoginTo: z.string().meta({ format: "date-time" }).optional(),
  sort: z.enum(USER_SORTS).optional(),
  direction: z.enum(SORT_DIRECTIONS).optional(),
});

/** GET /api/admin/audit/export.csv's query: the audit view's filter. */
const auditExportQuery = z.object({
  ...auditFilterSchema.shape,
  from: z.string().meta({ format: "date-time" }).optional(),
  to: z.string().meta({ format: "date-time" }).optional(),
});

const uploadIdParam = z.object({ uploadId: z.string().regex(/^[0-9a-f]{32}$/) });
const tusHeaders = { "Tus-Resumable": { schema: { type: "string" as const, enum: ["1.0.0"] } } };
const UPLOAD_ERRORS: Record<Status, string> = {
  400: "Malformed Upload-Metadata, or metadata the shared document schema refuses",
  401: "Not signed in",
  403: "Not a client, or a cross-site request",
  404: "No such upload of the caller's",
  409: "Upload-Offset does not match the bytes received",
  410: "The upload expired (24 hours); start again",
  412: "Tus-Resumable is missing",
  413: "Larger than the storage settings' maxFileSize, or more bytes than declared",
  415: "The file's extension is not allowed, or its content does not match it",
  422: "The file's content does not match its extension (checked on completion)",
  500: "Internal server error",
};

const OPERATIONS: Operation[] = [
  // public reads
  {
    method: "get",
    path: "/api/server-config",
    selfContained: true,
    tag: "Public",
    summary: "The server configuration a browser may know (spec §7)",
    access: "public",
    ok: { 200: json("port, proAppUrl, environment, serverTime", serverConfigSchema) },
  },
  {
    method: "get",
    path: "/api/branding",
    tag: "Public",
    summary: "The public branding every page may show",
    description: "Revalidated on each read (Cache-Control: no-cache); an unchanged answer is a 304.",
    access: "public",
    ok: { 200: json("The branding", publicBrandingSchema), 304: { description: "Not modified" } },
  },
  {
    method: "get",
    path: "/api/password-policy",
    tag: "Public",
    summary: "The shortest password the security settings allow",
    access: "public",
    ok: { 200: json("The policy", passwordPolicySchema), 304: { description: "Not modified" } },
  },
  {
    method: "get",
    path: OPENAPI_JSON_PATH,
    selfContained: true,
    tag: "Reference",
    summary: "This OpenAPI 3.1 document",
    access: "public",
    ok: {
      200: json("The document", z.looseObject({ openapi: z.string() })),
      304: { description: "Not modified" },
    },
  },
  {
    method: "get",
    path: API_DOCS_PATH,
    selfContained: true,
    tag: "Reference",
    summary: "The readable reference page of this document (Swagger UI, served by the portal)",
    access: "public",
    ok: { 200: media("The page", ["text/html"]), 304: { description: "Not modified" } },
  },
  {
    method: "get",
    path: `${API_DOCS_PATH}/{asset}`,
    selfContained: true,
    tag: "Reference",
    summary: "The reference page's script and style sheet",
    access: "public",
    params: z.object({ asset: z.string() }),
    ok: {
      200: media("The file", ["text/javascript", "text/css"]),
      304: { description: "Not modified" },
    },
  },

  // the Pro app's routes
  {
    method: "get",
    path: "/api/users/by-uniqueid/{uniqueId}",
    tag: "Pro app",
    summary: "A user's card by unique id",
    description:
      "With the Pro app's API key, any user's; with a session, one's own, or anyone's with manage:users or manage:esrt_sync (spec §7).",
    access: "sessionOrKey",
    params: uniqueIdParam,
    ok: { 200: json("The user's card", userCardSchema) },
    errors: { 401: "Not signed in, or an invalid or revoked API key", 404: "No user has this unique id" },
  },
  {
    method: "post",
    path: "/api/esrt/ack",
    tag: "Pro app",
    summary: "Acknowledge a user's version (the Pro app's API key, or manage:esrt_sync)",
    access: "sessionOrKey",
    body: apiAckSchema,
    ok: { 200: json("The user's sync state after the acknowledgement", ackResultSchema) },
    errors: {
      401: "Not signed in, or an invalid or revoked API key",
      404: "The sync service knows no user with this unique id",
      409: "The version is newer than the user's latest",
    },
  },

  // the session
  {
    method: "get",
    path: "/api/user",
    tag: "Session",
    summary: "The signed-in user (spec §7); 401 when signed out",
    access: "session",
    ok: { 200: json("The session's user", SafeUser) },
  },
  {
    method: "post",
    path: "/api/login",
    tag: "Session",
    summary: "Sign in with a username or email and a password",
    description:
      "Answers the user (a session cookie is set), or the next step: a second factor (`twoFactorRequired`) or the enhanced level's security question (`needsSecurityAnswer`). A 403 carries `status` (an inactive account) or `needsVerification` (spec §8).",
    access: "public",
    body: loginSchema,
    ok: { 200: json("The user, or the next step", SignInAnswer) },
    errors: {
      401: "Invalid login credentials",
      403: "The account is inactive (`status`), its email is unverified (`needsVerification`), or a cross-site request",
      404: "Account not found (only while the security settings reveal unknown accounts)",
      429: true,
    },
  },
  {
    method: "post",
    path: "/api/login/two-factor",
    tag: "Session",
    summary: "The pending sign-in's second factor (TOTP code, recovery code or passkey)",
    access: "public",
    body: secondFactorSchema,
    ok: { 200: json("The user, or the security question", SignInAnswer) },
    errors: {
      401: "No pending sign-in (or it expired), or the factor is wrong",
      409: true,
      429: true,
    },
  },
  {
    method: "post",
    path: "/api/login/two-factor/passkey-options",
    tag: "Session",
    summary: "WebAuthn options for the pending sign-in's passkey",
    access: "public",
    ok: { 200: json("PublicKeyCredentialRequestOptions (JSON)", z.looseObject({ challenge: z.string() })) },
    errors: { 401: "No pending sign-in, or it expired", 429: true },
  },
  {
    method: "post",
    path: "/api/login/passkey/options",
    tag: "Session",
    summary: "WebAuthn options for signing in with a passkey alone",
    access: "public",
    ok: { 200: json("PublicKeyCredentialRequestOptions (JSON)", z.looseObject({ challenge: z.string() })) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: "/api/login/passkey",
    tag: "Session",
    summary: "Sign in with a passkey alone",
    access: "public",
    body: passkeySignInSchema,
    ok: { 200: json("The user, or the security question", SignInAnswer) },
    errors: {
      401: "The passkey was not accepted",
      403: "The account is inactive, or a cross-site request",
      429: true,
    },
  },
  {
    method: "post",
    path: "/api/logout",
    tag: "Session",
    summary: "Sign out (ends the session)",
    access: "public",
    ok: { 200: json("Logged out", messageAnswerSchema) },
  },
  {
    method: "post",
    path: "/api/register",
    tag: "Session",
    summary: "Register a prospect or client; the new user is signed in at once (spec §7)",
    access: "public",
    body: registrationSchema,
    ok: { 201: json("The new user", SafeUser) },
    errors: {
      403: "The administrator types cannot register, or a cross-site request",
      409: "The username or email is taken",
      429: true,
    },
  },
  {
    method: "get",
    path: "/api/session-check",
    tag: "Session",
    summary: "Whether the session is active, and until when (never cached)",
    access: "session",
    ok: { 200: json("The session is active", sessionCheckSchema) },
  },
  {
    method: "get",
    path: "/api/auth/check-permissions",
    tag: "Session",
    summary: "Whether the user is an administrator holding the permissions asked about (spec §7)",
    access: "session",
    query: checkPermissionsQuery,
    ok: { 200: json("The permission check result", permissionCheckResultSchema) },
  },

  // the account
  {
    method: "post",
    path: "/api/reset-password",
    tag: "Account",
    summary: "Ask for a password reset link (the same answer whether or not the account exists)",
    access: "public",
    body: resetRequestSchema,
    ok: { 200: json("Asked", messageAnswerSchema) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: "/api/reset-password/confirm",
    tag: "Account",
    summary: "Set a new password with the emailed token",
    access: "public",
    body: resetConfirmSchema,
    ok: { 200: json("Password updated", messageAnswerSchema) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: "/api/verify-email/resend",
    tag: "Account",
    summary: "Send a new verification link (to the address given, or the session's own)",
    access: "public",
    body: resendVerificationSchema,
    ok: { 200: json("Sent if an unverified account has the address", messageAnswerSchema) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: "/api/verify-email",
    tag: "Account",
    summary: "Verify an email address with the emailed token",
    access: "public",
    body: verifyEmailSchema,
    ok: { 200: json("Email verified", emailVerifiedSchema) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: "/api/security-questions",
    tag: "Account",
    summary: "Set one's own three security questions and answers",
    access: "session",
    body: securityQuestionsSchema,
    ok: { 200: json("Security questions saved", messageAnswerSchema) },
    errors: { 404: "No such user" },
  },
  {
    method: "get",
    path: "/api/security-questions/{userId}",
    tag: "Account",
    summary: "A user's security questions, never the answers (one's own, or with manage:users)",
    description:
      "Also answers a pending enhanced-level sign-in its own user's questions. 404 when the user has none (spec §7).",
    access: "session",
    params: userIdParam,
    ok: { 200: json("The questions", securityQuestionsReadSchema) },
    errors: { 404: "No such user, or they have set no questions" },
  },
  {
    method: "post",
    path: "/api/verify-security-answers",
    tag: "Account",
    summary:
      "Answer the security question: completes an enhanced-level sign-in, or confirms a signed-in user",
    access: "public",
    body: securityAnswersSchema,
    ok: { 200: json("The new session's user, or `verified`", securityAnswersAnswerSchema) },
    errors: {
      401: "The answer is wrong, or no sign-in is pending",
      404: "No such user, or no questions",
      429: true,
    },
  },
  {
    method: "post",
    path: "/api/user/notes",
    tag: "Account",
    summary: "Save the console's notes (up to 250 words, spec §5)",
    description: "A refusal carries its reason in `error` as well as `message` (spec §8, 'Update Failed').",
    access: "session",
    body: notesSchema,
    ok: { 200: json("Notes saved", notesSavedSchema) },
  },
  {
    method: "post",
    path: "/api/user/password",
    tag: "Account",
    summary: "Change one's own password (every other session is signed out)",
    access: "session",
    body: changePasswordSchema,
    ok: { 200: json("Password updated", messageAnswerSchema) },
    errors: { 429: true },
  },
  {
    method: "post",
    path: `/api${ROLE_SWITCH_PATH}`,
    tag: "Session",
    summary: "The role switcher: sign in as a demo user (outside production; 404 in production)",
    access: "public",
    body: roleSwitchSchema,
    ok: { 200: json("The demo user, now signed in", SafeUser) },
    errors: {
      403: "Not a demo user, or a cross-site request",
      404: "Production: nothing answers here",
    },
  },

  // documents
  {
    method: "get",
    path: "/api/documents/{id}/download",
    tag: "Documents",
    summary: "Download a document's file (the owner, or read:all_documents); counted",
    access: "session",
    params: idParam,
    ok: {
      200: media("The file, as an attachment", ["application/octet-stream"]),
      302: { description: "Cloud storage: a presigned URL valid at most 60 s" },
    },
    errors: { 404: "No such document the caller may see, or its file is gone", 409: true },
  },
  {
    method: "get",
    path: "/api/documents/{id}/versions/{version}/download",
    tag: "Documents",
    summary: "Download an older version's file",
    access: "session",
    params: z.object({ id: idSchema, version: idSchema }),
    ok: {
      200: media("The file, as an attachment", ["application/octet-stream"]),
      302: { description: "Cloud storage: a presigned URL valid at most 60 s" },
    },
    errors: { 404: "No such document or version the caller may see", 409: true },
  },
  {
    method: "get",
    path: "/api/documents/{id}/preview",
    tag: "Documents",
    summary: "Preview a PDF or image inline (under Content-Security-Policy: sandbox)",
    access: "session",
    params: idParam,
    ok: { 200: media("The file, inline", ["application/pdf", "image/*"]) },
    errors: { 404: "No such document the caller may see", 415: "The document cannot be previewed" },
  },
  {
    method: "options",
    path: "/api/uploads",
    tag: "Documents",
    summary: "tus 1.0 discovery (a client's session)",
    access: "session",
    plainErrors: true,
    unguarded: true,
    ok: { 204: { description: "The tus versions and extensions supported" } },
    errors: UPLOAD_ERRORS,
  },
  {
    method: "post",
    path: "/api/uploads",
    tag: "Documents",
    summary: "Create a tus upload (a client): Upload-Length and Upload-Metadata (title, fileName, ...)",
    description:
      "The declared length, the extension and the metadata are checked before any byte is read; refusals are text/plain, as tus clients show them.",
    access: "session",
    plainErrors: true,
    unguarded: true,
    ok: { 201: { description: "Created; Location names the upload", headers: tusHeaders } },
    errors: UPLOAD_ERRORS,
  },
  {
    method: "head",
    path: "/api/uploads/{uploadId}",
    tag: "Documents",
    summary: "An upload's offset (its creator only)",
    access: "session",
    params: uploadIdParam,
    plainErrors: true,
    unguarded: true,
    ok: { 200: { description: "Upload-Offset and Upload-Length", headers: tusHeaders } },
    errors: UPLOAD_ERRORS,
  },
  {
    method: "patch",
    path: "/api/uploads/{uploadId}",
    tag: "Documents",
    summary: "Send the upload's bytes (application/offset+octet-stream); the last PATCH makes the document",
    access: "session",
    params: uploadIdParam,
    plainErrors: true,
    unguarded: true,
    ok: {
      200: json("Complete: the new document", z.looseObject({ document: z.looseObject({ id: z.number() }) })),
      204: { description: "Bytes received; Upload-Offset is the new offset", headers: tusHeaders },
    },
    errors: UPLOAD_ERRORS,
  },
  {
    method: "delete",
    path: "/api/uploads/{uploadId}",
    tag: "Documents",
    summary: "Abandon an upload (its creator only)",
    access: "session",
    params: uploadIdParam,
    plainErrors: true,
    unguarded: true,
    ok: { 204: { description: "Removed" } },
    errors: UPLOAD_ERRORS,
  },

  // appointments
  {
    method: "post",
    path: "/api/appointments",
    tag: "Appointments",
    summary: "Book an appointment (a client; spec §7)",
    description: "The booking browser's time zone comes from `timeZone` or the X-Time-Zone header.",
    access: "session",
    body: bookingSchema(),
    ok: { 201: json("The new, pending appointment", Appointment) },
    errors: { 404: "No such user", 409: "The slot is taken, or the client's limit is reached" },
  },
  {
    method: "get",
    path: "/api/appointments/mine",
    tag: "Appointments",
    summary: "The signed-in user's appointments",
    access: "session",
    ok: { 200: json("The appointments", z.array(Appointment)) },
  },
  {
    method: "get",
    path: "/api/appointments/availability",
    tag: "Appointments",
    summary: "The bookable slots of business days from `from` to `to` (at most 62 days)",
    access: "session",
    query: availabilityQuery,
    ok: { 200: json("The days and their slots", z.array(availabilityDaySchema)) },
    errors: { 400: "Dates must be written YYYY-MM-DD, or the range is wrong" },
  },
  {
    method: "post",
    path: "/api/appointments/{id}/cancel",
    tag: "Appointments",
    summary: "Cancel one's own appointment",
    access: "session",
    params: idParam,
    ok: { 200: json("The cancelled appointment", Appointment) },
    errors: { 404: "Appointment not found", 409: "The appointment can no longer change" },
  },
  {
    method: "get",
    path: "/api/admin/appointments",
    tag: "Appointments",
    summary: "Appointments filtered and sorted (manage:appointments; at most 500)",
    access: "session",
    query: adminListFiltersSchema,
    ok: { 200: json("The appointments", z.array(Appointment)) },
  },
  {
    method: "post",
    path: "/api/admin/appointments/{id}/confirm",
    tag: "Appointments",
    summary: "Confirm an appointment (manage:appointments)",
    access: "session",
    params: idParam,
    ok: { 200: json("The confirmed appointment", Appointment) },
    errors: { 404: "Appointment not found", 409: "The appointment can no longer change" },
  },
  {
    method: "post",
    path: "/api/admin/appointments/{id}/cancel",
    tag: "Appointments",
    summary: "Cancel an appointment with the reason the client will read (manage:appointments)",
    access: "session",
    params: idParam,
    body: cancelReasonSchema,
    ok: { 200: json("The cancelled appointment", Appointment) },
    errors: { 404: "Appointment not found", 409: "The appointment can no longer change" },
  },
  {
    method: "post",
    path: "/api/admin/appointments/{id}/reschedule",
    tag: "Appointments",
    summary: "Move an appointment to another slot (manage:appointments)",
    access: "session",
    params: idParam,
    body: z.object({ dateTime: appointmentDateTimeSchema }),
    ok: { 200: json("The rescheduled appointment", Appointment) },
    errors: {
      404: "Appointment not found",
      409: "The slot is taken, or the appointment can no longer change",
    },
  },

  // administration
  {
    method: "get",
    path: "/api/admin/audit/export.csv",
    tag: "Administration",
    summary: "The audit entries matching the filter, newest first, as CSV (any administrator)",
    access: "session",
    query: auditExportQuery,
    ok: { 200: media("The CSV file, streamed", ["text/csv"]) },
    errors: { 400: "The filter does not parse" },
  },
  {
    method: "get",
    path: "/api/admin/users/export.csv",
    tag: "Administration",
    summary: "The user directory's current filter and order as CSV (manage:users)",
    access: "session",
    query: userExportQuery,
    ok: { 200: media("The CSV file, streamed", ["text/csv"]) },
    errors: { 400: "The filter does not parse" },
  },
  {
    method: "post",
    path: "/api/admin/users/import",
    tag: "Administration",
    summary: "Check a CSV of clients (dryRun) or import them as a job (manage:users)",
    description: "The caller is authorised before the body (up to about 4 MB) is read.",
    access: "session",
    body: importBodySchema,
    ok: { 200: json("Every row's errors, and the job creating the accepted rows", importReportSchema) },
    errors: { 413: "The file is larger than 2 MB or has too many rows", 429: "Too many open jobs" },
  },
];

/** The shims' answer types equal the answer schemas (a field added to one and not the other fails lint). */
type Jsonified<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;
export type ShimAnswersMatchSchemas = AllTrue<
  [
    SameType<z.infer<typeof appointmentViewSchema>, AppointmentView>,
    SameType<z.infer<typeof availabilityDaySchema>, AvailabilityDay>,
    SameType<z.infer<typeof userCardSchema>, UserCard>,
    SameType<z.infer<typeof ackResultSchema>, AckResult>,
    SameType<z.infer<typeof userJobViewSchema>, Jsonified<UserJobView>>,
    SameType<z.infer<typeof importReportSchema>, Jsonified<ImportReport>>,
  ]
>;

/** The OpenAPI document of every /api route (built once per process; it depends on nothing else). */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31["generateDocument"]> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "The browser's session, set by POST /api/login or /api/register (HttpOnly, SameSite=Lax). State-changing requests must also be same-origin and JSON.",
  });
  registry.registerComponent("securitySchemes", "proAppKey", {
    type: "http",
    scheme: "bearer",
    description:
      "The Pro app's API key (made on the sync page): `Authorization: Bearer <key>`. Accepted by GET /api/users/by-uniqueid/{uniqueId} and POST /api/esrt/ack only; anywhere else it is refused 401.",
  });
  for (const op of OPERATIONS) {
    registry.registerPath({
      method: op.method,
      path: op.path,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: SECURITY[op.access],
      request: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(op.body
          ? { body: { required: true, content: { "application/json": { schema: op.body } } } }
          : {}),
      },
      responses: responsesOf(op),
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Client portal REST API",
      version: "1",
      description:
        "The REST shims under /api (spec §7 and the portal's additions). Every error body is JSON `{ message, code?, ... }` (`ApiError`), except the tus uploads' text/plain refusals. The GraphQL API is at /graphql; the Pro app's event channels are described by docs/asyncapi.yaml.",
    },
    servers: [{ url: "/" }],
    security: [{ sessionCookie: [] }],
    tags: TAGS,
  });
}

let built: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The document, built on first use and kept. */
export function openApiDocument(): ReturnType<typeof buildOpenApiDocument> {
  built ??= buildOpenApiDocument();
  return built;
}
