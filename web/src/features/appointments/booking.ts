import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_TYPES,
  type AppointmentTypeName,
  appointmentNotesSchema,
  BOOKING_WINDOW_DAYS,
  BUSINESS_TIME_ZONE,
  slotRuleViolation,
  slotsOfBusinessDay,
} from "@schema/validation/appointment";
import { DateTime } from "luxon";
import { z } from "zod";

// The appointment form's logic (spec §2, §5; DECISIONS.md Appointments), apart from React: days
// are business dates (America/Los_Angeles) whatever the browser's zone, and a slot is bookable
// only when the server's availability lists it free.

/** How each appointment type is offered. */
export const APPOINTMENT_TYPE_LABELS: Record<AppointmentTypeName, string> = {
  phone: "Phone call",
  zoom: "Zoom",
  teams: "Microsoft Teams",
};

export const BOOKING_TEXT = {
  missingTitle: "Missing information",
  missingDescription: APPOINTMENT_MESSAGES.dateTime,
  scheduledTitle: "Appointment scheduled",
  scheduledDescription: "Your appointment has been scheduled successfully",
  failedTitle: "Failed to schedule appointment",
} as const;

/** The form's values: a business date and a slot start (UTC ISO), both unset until chosen. */
export const bookingFormSchema = z.object({
  date: z.string().nullable(),
  dateTime: z.string().nullable(),
  appointmentType: z.enum(APPOINTMENT_TYPES),
  notes: appointmentNotesSchema,
});
export type BookingFormInput = z.input<typeof bookingFormSchema>;
export type BookingFormValues = z.output<typeof bookingFormSchema>;

/** The first and last business dates one may book on at `now` (today to 60 days on). */
export function bookingWindow(now: Date): { first: string; last: string } {
  const today = DateTime.fromJSDate(now, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  return {
    first: today.toISODate() ?? "",
    last: today.plus({ days: BOOKING_WINDOW_DAYS }).toISODate() ?? "",
  };
}

/** The browser-local midnight Date a date picker shows for a business date. */
export function pickerDateOf(businessDate: string): Date {
  const [year, month, day] = businessDate.split("-").map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1);
}

/** The business date (YYYY-MM-DD) of a day chosen in a date picker (a browser-local Date). */
export function businessDateOfPicked(picked: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${picked.getFullYear()}-${pad(picked.getMonth() + 1)}-${pad(picked.getDate())}`;
}

/** A free slot, as the server's availability lists it. */
export interface SlotAvailability {
  dateTime: string;
  taken: boolean;
}

/** One row of the time selector: every half hour 9:00 AM–4:30 PM, and whether it can be chosen. */
export interface SlotOption {
  dateTime: string;
  label: string;
  disabled: boolean;
  /** why it cannot be chosen */
  reason: "taken" | "unavailable" | null;
}

/**
 * The time selector of a business date: all sixteen slots, each enabled only when the server's
 * availability lists it and nobody holds it (past slots and days outside the window are absent
 * from the availability). With no availability (it failed to load), the booking rules at `now`
 * decide alone, and the server refuses a slot taken meanwhile.
 */
export function slotOptions(
  date: string,
  available: readonly SlotAvailability[] | null,
  now: Date = new Date(),
): SlotOption[] {
  const byStart = new Map((available ?? []).map((s) => [new Date(s.dateTime).getTime(), s]));
  return slotsOfBusinessDay(date).map((start) => {
    const slot = byStart.get(start.getTime());
    const reason =
      available === null
        ? slotRuleViolation(start, now) === null
          ? null
          : "unavailable"
        : !slot
          ? "unavailable"
          : slot.taken
            ? "taken"
            : null;
    return {
      dateTime: start.toISOString(),
      label: DateTime.fromJSDate(start, { zone: BUSINESS_TIME_ZONE }).setLocale("en-US").toFormat("h:mm a"),
      disabled: reason !== null,
      reason,
    };
  });
}

/** Whether a business date has a slot one can book. */
export function hasFreeSlot(available: readonly SlotAvailability[] | undefined): boolean {
  return (available ?? []).some((s) => !s.taken);
}

/** "Wednesday, March 10, 2032 at 9:00 AM PST" in Pacific time. */
export function pacificLabel(dateTime: string): string {
  return DateTime.fromISO(dateTime, { zone: BUSINESS_TIME_ZONE })
    .setLocale("en-US")
    .toFormat("cccc, LLLL d, yyyy 'at' h:mm a ZZZZ");
}

/** The same instant in `zone` ("… at 6:00 PM GMT+1"), or null when that reads the same as Pacific. */
export function localLabel(dateTime: string, zone: string): string | null {
  const local = DateTime.fromISO(dateTime, { zone });
  if (!local.isValid) return null;
  const pacific = DateTime.fromISO(dateTime, { zone: BUSINESS_TIME_ZONE });
  if (local.offset === pacific.offset) return null;
  return local.setLocale("en-US").toFormat("cccc, LLLL d 'at' h:mm a ZZZZ");
}

/** The browser's IANA time zone, if it tells. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
