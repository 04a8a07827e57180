import { DateTime, IANAZone } from "luxon";
import { z } from "zod";
import { id, text } from "./primitives";

// Validation of appointment bookings, shared by the web form and the server (spec §5, §9 and
// DECISIONS.md "Appointments"): the spec's messages word for word, and the weekday, business-hours
// and slot rules in business time (America/Los_Angeles), whatever the zone of the browser or server.
// Text fields are text() and ids id() (./primitives), so nothing the database refuses gets past.

export const APPOINTMENT_TYPES = ["phone", "zoom", "teams"] as const;
export type AppointmentTypeName = (typeof APPOINTMENT_TYPES)[number];

export const APPOINTMENT_STATUSES = ["pending", "confirmed", "cancelled"] as const;
export type AppointmentStatusName = (typeof APPOINTMENT_STATUSES)[number];

/** The firm's time zone: slots are wall-clock times there; dateTime is stored as UTC. */
export const BUSINESS_TIME_ZONE = "America/Los_Angeles";
export const SLOT_MINUTES = 30;
/** first and last slot start, minutes after midnight business time (09:00 and 16:30) */
export const FIRST_SLOT_MINUTE = 9 * 60;
export const LAST_SLOT_MINUTE = 16 * 60 + 30;
export const BOOKING_WINDOW_DAYS = 60;
export const APPOINTMENT_NOTES_MAX = 250;

export const APPOINTMENT_MESSAGES = {
  inFuture: "Appointment must be in the future",
  withinWindow: "Appointment must be within 60 days",
  notesTooLong: "Notes cannot exceed 250 characters",
  type: "Appointment type must be phone, zoom or teams",
  dateTime: "Please select a date and time for your appointment",
  weekday: "Appointments are available Monday to Friday only",
  businessHours: "Appointments start between 9:00 AM and 4:30 PM Pacific time",
  slot: "Appointments start on the hour or half hour",
  reason: "A reason is required to cancel an appointment",
} as const;

/** The wall-clock view of an instant in business time. */
export function inBusinessTime(instant: Date): DateTime {
  return DateTime.fromJSDate(instant, { zone: BUSINESS_TIME_ZONE });
}

/** Whether `dateTime` is no later than 60 days after `now`. */
export function withinBookingWindow(dateTime: Date, now: Date): boolean {
  return dateTime.getTime() <= inBusinessTime(now).plus({ days: BOOKING_WINDOW_DAYS }).toMillis();
}

/**
 * The first booking rule `dateTime` breaks at `now` (its message), or null for a bookable slot:
 * in the future, within 60 days, Monday to Friday, 09:00–16:30 business time, on a half hour.
 */
export function slotRuleViolation(dateTime: Date, now: Date): string | null {
  if (dateTime.getTime() <= now.getTime()) return APPOINTMENT_MESSAGES.inFuture;
  if (!withinBookingWindow(dateTime, now)) return APPOINTMENT_MESSAGES.withinWindow;
  const local = inBusinessTime(dateTime);
  if (local.weekday > 5) return APPOINTMENT_MESSAGES.weekday;
  const minute = local.hour * 60 + local.minute;
  if (minute < FIRST_SLOT_MINUTE || minute > LAST_SLOT_MINUTE) return APPOINTMENT_MESSAGES.businessHours;
  if (local.minute % SLOT_MINUTES !== 0 || local.second !== 0 || local.millisecond !== 0) {
    return APPOINTMENT_MESSAGES.slot;
  }
  return null;
}

/** The slot start instants of one business day (YYYY-MM-DD), 09:00 to 16:30 business time. */
export function slotsOfBusinessDay(date: string): Date[] {
  const day = DateTime.fromISO(date, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  if (!day.isValid) return [];
  const slots: Date[] = [];
  for (let minute = FIRST_SLOT_MINUTE; minute <= LAST_SLOT_MINUTE; minute += SLOT_MINUTES) {
    slots.push(day.set({ hour: Math.floor(minute / 60), minute: minute % 60 }).toJSDate());
  }
  return slots;
}

export const appointmentTypeSchema = z.enum(APPOINTMENT_TYPES, { error: APPOINTMENT_MESSAGES.type });

export const appointmentNotesSchema = text()
  .trim()
  .max(APPOINTMENT_NOTES_MAX, APPOINTMENT_MESSAGES.notesTooLong)
  .nullish()
  .transform((v) => (v === "" || v === undefined ? null : v));

/** Whether `value` is a Date that holds an instant (not an Invalid Date). */
function isInstant(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/**
 * An ISO 8601 instant with its offset ("2030-01-07T17:00:00Z", "...-08:00"), as a Date. Anything else
 * (a number, "next tuesday", "", a date without time or offset, a day the month lacks) fails with
 * 'Please select a date and time for your appointment'.
 */
export const appointmentDateTimeSchema = text({ error: APPOINTMENT_MESSAGES.dateTime })
  .pipe(z.iso.datetime({ offset: true, error: APPOINTMENT_MESSAGES.dateTime }))
  .transform((v, ctx) => {
    const instant = new Date(v);
    if (isInstant(instant)) return instant;
    ctx.issues.push({ code: "custom", message: APPOINTMENT_MESSAGES.dateTime, input: v });
    return z.NEVER;
  });

export const TIME_ZONE_MESSAGE = "The time zone must be an IANA time zone name, such as America/New_York";

/**
 * The booking browser's IANA time zone (DECISIONS.md: kept so emails can show the client's own time):
 * absent, null or a name luxon does not know becomes null (dropped); a value that is not text fails.
 */
export const timeZoneSchema = text({ error: TIME_ZONE_MESSAGE })
  .trim()
  .nullish()
  .transform((v) => (v && v.length <= 100 && IANAZone.isValidZone(v) ? v : null));

/**
 * POST /api/appointments (spec §7: userId, appointmentType, dateTime, status, notes) with the slot
 * rules checked at `now`. `status` is accepted and ignored: a new booking is always pending.
 */
export function bookingSchema(now: Date = new Date()) {
  return z
    .object({
      userId: id("userId must be a user's id").optional(),
      appointmentType: appointmentTypeSchema,
      dateTime: appointmentDateTimeSchema,
      status: z.unknown().optional(),
      notes: appointmentNotesSchema,
    })
    .superRefine((value, ctx) => {
      // zod runs an object's refinements even when a field failed: a dateTime that did not parse is
      // still the raw input here, and has its issue already
      if (!isInstant(value.dateTime)) return;
      const problem = slotRuleViolation(value.dateTime, now);
      if (problem) ctx.addIssue({ code: "custom", path: ["dateTime"], message: problem });
    });
}

export type BookingInput = z.output<ReturnType<typeof bookingSchema>>;

/** A business date, YYYY-MM-DD. */
export const businessDateSchema = text({ error: "Dates must be written YYYY-MM-DD" })
  .pipe(z.iso.date({ error: "Dates must be written YYYY-MM-DD" }))
  // a day's bounds in the business time zone (up to 14 hours from UTC) stay in the years 1 to 9999,
  // which PostgreSQL's timestamps hold: "0000-01-01" once answered 500
  .refine((v) => v >= "0001-01-02" && v <= "9999-12-30", "Dates must lie between 0001-01-02 and 9999-12-30");

/** Cancelling by an administrator: the reason the client will read. */
export const cancelReasonSchema = z.object({
  reason: text({ error: APPOINTMENT_MESSAGES.reason })
    .trim()
    .min(1, APPOINTMENT_MESSAGES.reason)
    .max(500, "The reason cannot exceed 500 characters"),
});
