import { type AppointmentErrorCode, isAppointmentError } from "@services/appointment";
import { isDatabaseUnavailable } from "@services/shared/dbUnavailable";
import { AppError, type AppErrorCode, isAppError } from "@services/shared/errors";
import { isUserError, type UserErrorCode } from "@services/user";
import { GraphQLError } from "graphql";

/**
 * The one place that turns an error into what a client sees: an HTTP status and JSON body for the
 * REST routes, a GraphQL error for the API. Codes not listed here do not compile (exhaustive switch).
 */

export interface HttpErrorBody {
  message: string;
  code: AppErrorCode;
  [detail: string]: unknown;
}

export interface HttpError {
  status: number;
  body: HttpErrorBody;
}

const INTERNAL_MESSAGE = "Internal server error";
/** What a request that met a database unable to work now is told (503, Retry-After). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The portal is temporarily unavailable. Please try again shortly.";

/** HTTP status of an error code. */
export function httpStatusFor(code: AppErrorCode): number {
  switch (code) {
    case "BAD_REQUEST":
      return 400;
    case "VALIDATION_FAILED":
      return 400;
    case "UNAUTHENTICATED":
      return 401;
    case "FORBIDDEN":
      return 403;
    case "NOT_FOUND":
      return 404;
    case "CONFLICT":
      return 409;
    case "PAYLOAD_TOO_LARGE":
      return 413;
    case "UNSUPPORTED_MEDIA_TYPE":
      return 415;
    case "UNPROCESSABLE":
      return 422;
    case "RATE_LIMITED":
      return 429;
    case "UNAVAILABLE":
      return 503;
    case "INTERNAL":
      return 500;
    default:
      return assertNever(code);
  }
}

/** The AppError code (and so the HTTP status) of each user-service failure. */
export function appCodeForUserError(code: UserErrorCode): AppErrorCode {
  switch (code) {
    case "INVALID_CREDENTIALS":
    case "SECURITY_VERIFICATION_FAILED":
    case "TWO_FACTOR_FAILED":
      return "UNAUTHENTICATED";
    case "TWO_FACTOR_CONFLICT":
      return "CONFLICT";
    case "ACCOUNT_NOT_FOUND":
    case "USER_NOT_FOUND":
    case "NO_SECURITY_QUESTIONS":
      return "NOT_FOUND";
    case "ACCOUNT_INACTIVE":
    case "EMAIL_NOT_VERIFIED":
    case "ADMIN_REGISTRATION":
    case "NOT_ALLOWED":
    case "SECURITY_QUESTIONS_REQUIRED":
      return "FORBIDDEN";
    case "USERNAME_TAKEN":
    case "EMAIL_TAKEN":
      return "CONFLICT";
    case "COMMON_PASSWORD":
    case "WRONG_PASSWORD":
    case "INVALID_TWO_FACTOR_CODE":
      return "VALIDATION_FAILED";
    case "INVALID_RESET_TOKEN":
    case "INVALID_VERIFICATION_TOKEN":
      return "BAD_REQUEST";
    default:
      return assertNever(code);
  }
}

/** The AppError code (and so the HTTP status) of each appointment-service failure. */
export function appCodeForAppointmentError(code: AppointmentErrorCode): AppErrorCode {
  switch (code) {
    case "INVALID_APPOINTMENT":
      return "VALIDATION_FAILED";
    case "SLOT_TAKEN":
    case "LIMIT_REACHED":
    case "NOT_CHANGEABLE":
      return "CONFLICT";
    case "APPOINTMENT_NOT_FOUND":
    case "USER_NOT_FOUND":
      return "NOT_FOUND";
    case "NOT_ALLOWED":
      return "FORBIDDEN";
    default:
      return assertNever(code);
  }
}

/** Whether the message of an error with this code may be shown to the client as it is. */
function exposesMessage(code: AppErrorCode): boolean {
  switch (code) {
    case "BAD_REQUEST":
    case "VALIDATION_FAILED":
    case "UNAUTHENTICATED":
    case "FORBIDDEN":
    case "NOT_FOUND":
    case "CONFLICT":
    case "PAYLOAD_TOO_LARGE":
    case "UNSUPPORTED_MEDIA_TYPE":
    case "UNPROCESSABLE":
    case "RATE_LIMITED":
    case "UNAVAILABLE":
      return true;
    case "INTERNAL":
      return false;
    default:
      return assertNever(code);
  }
}

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  message?: unknown;
}

/**
 * Turns anything thrown in a request into an AppError: AppErrors pass through, Express/body-parser
 * errors (malformed JSON, body too large, unsupported charset) become client errors, a database that
 * cannot work now (services/shared/dbUnavailable) UNAVAILABLE, everything else INTERNAL. Never throws.
 */
export function normalizeError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (isUserError(err)) {
    return new AppError(appCodeForUserError(err.code), err.message, {
      details: { ...err.details, reason: err.code },
      cause: err,
    });
  }
  if (isAppointmentError(err)) {
    return new AppError(appCodeForAppointmentError(err.code), err.message, {
      details: { ...err.details, reason: err.code },
      cause: err,
    });
  }
  if (isDatabaseUnavailable(err)) {
    return new AppError("UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE, { cause: err });
  }
  if (typeof err === "object" && err !== null) {
    const e = err as HttpLikeError;
    const status =
      typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : 0;
    if (e.type === "entity.parse.failed") {
      return new AppError("BAD_REQUEST", "Malformed JSON in request body", { cause: err });
    }
    // The router answers a path it cannot percent-decode with a URIError marked 400.
    if (err instanceof URIError) {
      return new AppError("BAD_REQUEST", "Malformed URL", { cause: err });
    }
    if (e.type === "entity.too.large" || status === 413) {
      return new AppError("PAYLOAD_TOO_LARGE", "Request body is too large", { cause: err });
    }
    if (status >= 400 && status < 500 && e.expose === true && typeof e.message === "string") {
      return new AppError(status === 404 ? "NOT_FOUND" : "BAD_REQUEST", e.message, { cause: err });
    }
  }
  return new AppError("INTERNAL", INTERNAL_MESSAGE, { cause: err });
}

/** The HTTP status and JSON body for an error on a REST route; never includes a stack trace. */
export function toHttpError(err: unknown): HttpError {
  const appError = normalizeError(err);
  const message = exposesMessage(appError.code) ? appError.message : INTERNAL_MESSAGE;
  return {
    status: httpStatusFor(appError.code),
    body: { ...(exposesMessage(appError.code) ? appError.details : {}), message, code: appError.code },
  };
}

/** The GraphQL error for an AppError (extensions.code is the AppError code, plus safe details). */
export function toGraphQLError(err: AppError): GraphQLError {
  const expose = exposesMessage(err.code);
  return new GraphQLError(expose ? err.message : INTERNAL_MESSAGE, {
    extensions: {
      ...(expose ? err.details : {}),
      code: err.code === "INTERNAL" ? "INTERNAL_SERVER_ERROR" : err.code,
      http: { status: httpStatusFor(err.code) },
    },
  });
}

function assertNever(value: never): never {
  throw new Error(`Unhandled error code: ${String(value)}`);
}
