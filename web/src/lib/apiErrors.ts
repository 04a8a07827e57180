import type { ApiErrorBody } from "@schema/api/user";

/** Spec §8: the support phone of the deactivated-account message until branding gives one. */
export const DEFAULT_SUPPORT_PHONE = "(555) 010-0100";

const ACCOUNT_STATUS_MESSAGE = /^This account has been \S+\. Please contact support at .+ for assistance\.$/;

/** A failed REST call taken apart: its status code and the JSON error body, when it had one. */
export interface ParsedApiError {
  status: number;
  body: ApiErrorBody | null;
  /** the body text (or status text) after "<status>: " */
  text: string;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads an error thrown by apiRequest ("<status>: <body text or status text>", spec §7) back into its
 * status and JSON body. Returns null for anything else (a network failure, for example).
 */
export function parseApiError(error: unknown): ParsedApiError | null {
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return null;
  const status = Number(match[1]);
  const text = match[2] ?? "";
  try {
    const parsed: unknown = JSON.parse(text);
    return { status, text, body: isErrorBody(parsed) ? parsed : null };
  } catch {
    return { status, text, body: null };
  }
}

/** The server's `message` for a failed call, else `fallback`. */
export function serverMessage(error: unknown, fallback: string): string {
  const message = parseApiError(error)?.body?.message;
  return typeof message === "string" && message.trim() !== "" ? message : fallback;
}

/**
 * The description of the 'Login failed' toast (spec §8) for an error of POST /api/login: the account
 * status with the support phone for a 403 with `status` (the server's wording when it has the spec's
 * form, since the server knows the branding's phone), the verification reminder for a 403 with
 * `needsVerification`, the not-found text for a 404, else the server's message or
 * 'Invalid login credentials'.
 */
export function loginFailureMessage(error: unknown, supportPhone: string = DEFAULT_SUPPORT_PHONE): string {
  const parsed = parseApiError(error);
  const body = parsed?.body;
  if (parsed?.status === 403 && typeof body?.status === "string" && body.status !== "") {
    // The server words it with the branding's support phone; use that when it has.
    const fromServer = body.message;
    if (typeof fromServer === "string" && ACCOUNT_STATUS_MESSAGE.test(fromServer)) return fromServer;
    return `This account has been ${body.status}. Please contact support at ${supportPhone} for assistance.`;
  }
  if (parsed?.status === 404) return "Account not found. Please check your login credentials or register.";
  if (parsed?.status === 403 && body?.needsVerification === true) {
    return "Please verify your email before logging in. Check your inbox for the verification link.";
  }
  return serverMessage(error, "Invalid login credentials");
}

/** The description of the 'Update Failed' toast (spec §8): the server's `error` field or the default text. */
export function notesFailureMessage(error: unknown): string {
  const reason = parseApiError(error)?.body?.error;
  return typeof reason === "string" && reason.trim() !== "" ? reason : "Failed to update notes";
}
