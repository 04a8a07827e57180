import { DateTime } from "luxon";
import {
  BOOKING_WINDOW_DAYS,
  BUSINESS_TIME_ZONE,
  businessDateSchema,
  FIRST_SLOT_MINUTE,
  inBusinessTime,
  LAST_SLOT_MINUTE,
  SLOT_MINUTES,
  slotsOfBusinessDay,
} from "../../schema/validation/appointment";
import type { Db } from "../shared/db";
import { AppointmentError } from "./errors";
import { slotCapacity } from "./seats";

/** One bookable slot of a day: its UTC start, its business-time label, and whether it is taken. */
export interface AvailabilitySlot {
  dateTime: string;
  /** business time, "09:00" */
  time: string;
  /** business time, "9:00 AM" */
  label: string;
  taken: boolean;
}

export interface AvailabilityDay {
  /** business date, YYYY-MM-DD */
  date: string;
  /** empty on weekends, past days and days beyond the 60-day window */
  slots: AvailabilitySlot[];
}

/** The business-time labels of the day's slots, in order ("09:00" / "9:00 AM" to "16:30" / "4:30 PM"). */
const SLOT_LABELS = Array.from(
  { length: (LAST_SLOT_MINUTE - FIRST_SLOT_MINUTE) / SLOT_MINUTES + 1 },
  (_, k) => {
    const minute = FIRST_SLOT_MINUTE + k * SLOT_MINUTES;
    const at = DateTime.fromObject(
      { hour: Math.floor(minute / 60), minute: minute % 60 },
      { zone: "UTC" },
    ).setLocale("en-US");
    return { time: at.toFormat("HH:mm"), label: at.toFormat("h:mm a") };
  },
);

/**
 * The UTC instants (ms) of a business day's slot starts: its 9:00 AM and then every half hour, as
 * long as the day keeps one offset through business hours (always, in Los Angeles); otherwise each
 * slot converted on its own.
 */
function slotStartsOf(day: DateTime): number[] {
  const opening = day.set({ hour: Math.floor(FIRST_SLOT_MINUTE / 60), minute: FIRST_SLOT_MINUTE % 60 });
  const closing = day.set({ hour: Math.floor(LAST_SLOT_MINUTE / 60), minute: LAST_SLOT_MINUTE % 60 });
  const step = SLOT_MINUTES * 60_000;
  if (closing.toMillis() - opening.toMillis() !== (LAST_SLOT_MINUTE - FIRST_SLOT_MINUTE) * 60_000) {
    return slotsOfBusinessDay(day.toISODate() ?? "").map((d) => d.getTime());
  }
  return SLOT_LABELS.map((_, k) => opening.toMillis() + k * step);
}

/** The most days one availability request may cover. */
export const AVAILABILITY_MAX_DAYS = 62;

/**
 * The bookable slots of each business day from `from` to `to` (YYYY-MM-DD, America/Los_Angeles,
 * inclusive): only slots that pass every booking rule at `now`, each marked taken when live
 * (pending or confirmed) appointments fill it. Says nothing about who holds a slot.
 * @throws AppointmentError INVALID_APPOINTMENT for a malformed date, `to` before `from`, or a
 * range longer than 62 days.
 */
export async function getAvailability(props: {
  db: Db;
  from: string;
  to?: string;
  /** bookings one slot may hold (default APPOINTMENT_SLOT_CAPACITY) */
  capacity?: number;
  now?: Date;
}): Promise<AvailabilityDay[]> {
  const capacity = props.capacity ?? slotCapacity();
  const now = props.now ?? new Date();
  const from = businessDateSchema.safeParse(props.from);
  const to = businessDateSchema.safeParse(props.to ?? props.from);
  if (!from.success || !to.success) {
    throw new AppointmentError("INVALID_APPOINTMENT", "Dates must be written YYYY-MM-DD");
  }
  const first = DateTime.fromISO(from.data, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const last = DateTime.fromISO(to.data, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  if (!first.isValid || !last.isValid) {
    throw new AppointmentError("INVALID_APPOINTMENT", "Dates must be written YYYY-MM-DD");
  }
  const dayCount = Math.round(last.diff(first, "days").days) + 1;
  if (dayCount < 1)
    throw new AppointmentError("INVALID_APPOINTMENT", "The end date must not be before the start date");
  if (dayCount > AVAILABILITY_MAX_DAYS) {
    throw new AppointmentError(
      "INVALID_APPOINTMENT",
      `Ask for at most ${AVAILABILITY_MAX_DAYS} days at a time`,
    );
  }
  const taken = await props.db.prisma.appointment.findMany({
    where: {
      status: { not: "cancelled" },
      dateTime: { gte: first.toJSDate(), lt: last.plus({ days: 1 }).toJSDate() },
    },
    select: { dateTime: true },
  });
  const held = new Map<number, number>();
  for (const a of taken) held.set(a.dateTime.getTime(), (held.get(a.dateTime.getTime()) ?? 0) + 1);
  // The rules of slotRuleViolation, applied per day rather than per slot: a business day's slots
  // share its weekday and its UTC offset (Los Angeles changes its clocks at 2 AM, never during
  // business hours), so one zone conversion per day gives all sixteen instants; labels are fixed.
  const nowMs = now.getTime();
  const windowEnd = inBusinessTime(now).plus({ days: BOOKING_WINDOW_DAYS }).toMillis();
  const days: AvailabilityDay[] = [];
  for (let i = 0; i < dayCount; i++) {
    const day = first.plus({ days: i });
    const date = day.toISODate() ?? "";
    const starts = day.weekday > 5 ? [] : slotStartsOf(day);
    const slots: AvailabilitySlot[] = [];
    starts.forEach((ms, k) => {
      if (ms <= nowMs || ms > windowEnd) return;
      const label = SLOT_LABELS[k];
      if (!label) return;
      slots.push({
        dateTime: new Date(ms).toISOString(),
        time: label.time,
        label: label.label,
        taken: (held.get(ms) ?? 0) >= capacity,
      });
    });
    days.push({ date, slots });
  }
  return days;
}
