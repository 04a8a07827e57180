/**
 * The appointment service's expected failures. Each code is turned into an HTTP status and a GraphQL
 * error by the gateway's one mapper (gateway/src/errors.ts, exhaustive over this union).
 */
export const appointmentErrorCodes = [
  "INVALID_APPOINTMENT",
  "SLOT_TAKEN",
  "LIMIT_REACHED",
  "APPOINTMENT_NOT_FOUND",
  "USER_NOT_FOUND",
  "NOT_ALLOWED",
  "NOT_CHANGEABLE",
] as const;

export type AppointmentErrorCode = (typeof appointmentErrorCodes)[number];

export class AppointmentError extends Error {
  readonly code: AppointmentErrorCode;
  /** client-safe facts (a field's messages) */
  readonly details?: Record<string, unknown>;

  constructor(code: AppointmentErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "AppointmentError";
    this.code = code;
    this.details = details;
  }
}

/** Whether `err` is an AppointmentError (also across module copies, by shape). */
export function isAppointmentError(err: unknown): err is AppointmentError {
  if (err instanceof AppointmentError) return true;
  if (!(err instanceof Error) || err.name !== "AppointmentError") return false;
  const code: unknown = Reflect.get(err, "code");
  return typeof code === "string" && (appointmentErrorCodes as readonly string[]).includes(code);
}

export const SLOT_TAKEN_MESSAGE = "This time slot has just been taken. Please choose another time.";
export const APPOINTMENT_NOT_FOUND_MESSAGE = "Appointment not found";
/** prospects and users: one upcoming appointment (DECISIONS.md, Who counts as a client) */
export const PROSPECT_LIMIT_MESSAGE =
  "You already have an upcoming appointment. Cancel it or wait until it has taken place before booking another.";
/** clients and admins: three upcoming appointments */
export const CLIENT_LIMIT_MESSAGE =
  "You already have 3 upcoming appointments, the most one account can hold. Cancel one before booking another.";
