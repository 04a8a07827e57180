import {
  BOOKING_WINDOW_DAYS,
  BUSINESS_TIME_ZONE,
  businessDateSchema,
  FIRST_SLOT_MINUTE,
  inBusinessTime,
  LAST_SLOT_MINUTE,
  SLOT_MINUTES,
} from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";
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

const DAY_MS = 24 * 60 * 60_000;
const SLOT_MS = SLOT_MINUTES * 60_000;

/** 9:00 AM business time on `day`, as a zoned DateTime. */
function openingOf(day: DateTime): DateTime {
  return day.set({ hour: Math.floor(FIRST_SLOT_MINUTE / 60), minute: FIRST_SLOT_MINUTE % 60 });
}

/**
 * The UTC instant (ms) of 9:00 AM business time on each of `count` days from `first`, with a handful
 * of zone conversions in all rather than one a day: the offset at 9:00 AM is the same every day
 * except across a clock change, and a 62-day window holds at most one (Los Angeles changes its
 * clocks in March and November, at 2 AM); the first day of the new offset is found by bisection.
 */
function openingsOf(first: DateTime, count: number): number[] {
  const start = openingOf(first);
  const end = openingOf(first.plus({ days: count - 1 }));
  let change = count;
  if (start.offset !== end.offset) {
    let low = 0;
    let high = count - 1;
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (openingOf(first.plus({ days: mid })).offset === start.offset) low = mid;
      else high = mid;
    }
    change = high;
  }
  const shift = (start.offset - end.offset) * 60_000;
  return Array.from({ length: count }, (_, i) => start.toMillis() + i * DAY_MS + (i >= change ? shift : 0));
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
  // share its weekday and its UTC offset (Los Angeles changes its clocks at 2 AM, never in business
  // hours), so each day's sixteen instants follow from its 9:00 AM, and the labels are fixed.
  const nowMs = now.getTime();
  const windowEnd = inBusinessTime(now).plus({ days: BOOKING_WINDOW_DAYS }).toMillis();
  const openings = openingsOf(first, dayCount);
  const firstDate = Date.UTC(first.year, first.month - 1, first.day);
  const days: AvailabilityDay[] = [];
  for (let i = 0; i < dayCount; i++) {
    const date = new Date(firstDate + i * DAY_MS).toISOString().slice(0, 10);
    const weekday = ((first.weekday - 1 + i) % 7) + 1;
    const opening = openings[i] ?? 0;
    const slots: AvailabilitySlot[] = [];
    if (weekday <= 5) {
      SLOT_LABELS.forEach((label, k) => {
        const ms = opening + k * SLOT_MS;
        if (ms <= nowMs || ms > windowEnd) return;
        slots.push({
          dateTime: new Date(ms).toISOString(),
          time: label.time,
          label: label.label,
          taken: (held.get(ms) ?? 0) >= capacity,
        });
      });
    }
    days.push({ date, slots });
  }
  return days;
}
