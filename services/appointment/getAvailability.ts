import { DateTime } from "luxon";
import {
  BUSINESS_TIME_ZONE,
  businessDateSchema,
  inBusinessTime,
  slotRuleViolation,
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
  const days: AvailabilityDay[] = [];
  for (let i = 0; i < dayCount; i++) {
    const date = first.plus({ days: i }).toISODate() ?? "";
    const slots = slotsOfBusinessDay(date)
      .filter((slot) => slotRuleViolation(slot, now) === null)
      .map((slot) => {
        const local = inBusinessTime(slot).setLocale("en-US");
        return {
          dateTime: slot.toISOString(),
          time: local.toFormat("HH:mm"),
          label: local.toFormat("h:mm a"),
          taken: (held.get(slot.getTime()) ?? 0) >= capacity,
        };
      });
    days.push({ date, slots });
  }
  return days;
}
