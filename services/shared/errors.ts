/**
 * The portal's one error class. Services throw `AppError` with a code for every failure a caller is
 * expected to handle; the gateway's mapper (gateway/src/errors.ts) turns the code into an HTTP status
 * or a GraphQL error. Anything that is not an AppError is an internal error and is never shown.
 */

/** The codes of AppError (the REST error body's `code`): one list, kept with the API's answers. */
export { APP_ERROR_CODES as appErrorCodes } from "@schema/api/answers";

import { APP_ERROR_CODES } from "@schema/api/answers";

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/** Extra, client-safe facts about a failure (field errors, a retry hint, an account status...). */
export type AppErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: AppErrorDetails;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { details?: AppErrorDetails; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
  }
}

/** Whether `err` is an AppError (also across module copies, by shape). */
export function isAppError(err: unknown): err is AppError {
  if (err instanceof AppError) return true;
  if (!(err instanceof Error) || err.name !== "AppError") return false;
  const code: unknown = Reflect.get(err, "code");
  return typeof code === "string" && (APP_ERROR_CODES as readonly string[]).includes(code);
}
