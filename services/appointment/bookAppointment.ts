import { bookingSchema, timeZoneSchema } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { findUserContact } from "@services/user";
import { AppointmentError, CLIENT_LIMIT_MESSAGE, PROSPECT_LIMIT_MESSAGE, SLOT_TAKEN_MESSAGE } from "./errors";
import {
  type AppointmentActor,
  type AppointmentView,
  eventFields,
  isSlotTaken,
  presentAppointment,
} from "./present";
import { reminderSentAtFor } from "./reminders";
import { freeSeat, retryLostSeat, slotCapacity } from "./seats";

/** Upcoming (pending or confirmed, future) appointments a user of this type may hold at once. */
export function upcomingLimitOf(userType: UserType): number {
  return userType === "client" || userType === "mainAdmin" || userType === "userAdmin" ? 3 : 1;
}

/** The first key of the per-user booking lock (pg_advisory_xact_lock(int, int), the user's id second). */
const BOOKING_LOCK = 0x61707074; // "appt"

/**
 * Books a consultation (spec §5, §7): checks every slot rule at `now` in business time, decides
 * what it must not trust (a new booking is pending and belongs to the actor, unless the actor
 * manages appointments and names another user), holds the per-user limit, takes a free seat of the
 * slot, and writes the row and appointment.scheduled in one transaction. The partial unique index
 * appointments_live_slot_key on (dateTime, seat) makes overbooking impossible; a booking that lost
 * its seat to a concurrent one tries the next while seats remain.
 * @throws AppointmentError INVALID_APPOINTMENT (a rule's message, or a time zone that is not text), NOT_ALLOWED (booking for
 * another user without manage:appointments), USER_NOT_FOUND, LIMIT_REACHED, SLOT_TAKEN.
 */
export async function bookAppointment(props: {
  db: Db;
  actor: AppointmentActor;
  /** the request body: userId, appointmentType, dateTime, status (ignored), notes */
  input: unknown;
  /** the client's IANA time zone, when known: an unknown name is dropped, a value not text refused */
  timeZone?: unknown;
  /** bookings one slot may hold (default APPOINTMENT_SLOT_CAPACITY) */
  capacity?: number;
  now?: Date;
}): Promise<AppointmentView> {
  const capacity = props.capacity ?? slotCapacity();
  const now = props.now ?? new Date();
  const zone = timeZoneSchema.safeParse(props.timeZone);
  if (!zone.success) {
    const message = zone.error.issues[0]?.message ?? "Invalid time zone";
    throw new AppointmentError("INVALID_APPOINTMENT", message, { errors: { timeZone: [message] } });
  }
  const timeZone = zone.data;
  const parsed = bookingSchema(now).safeParse(props.input ?? {});
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid appointment";
    throw new AppointmentError("INVALID_APPOINTMENT", message, {
      errors: Object.fromEntries(
        parsed.error.issues.map((i) => [i.path.map(String).join(".") || "_", [i.message]]),
      ),
    });
  }
  const input = parsed.data;
  const userId = input.userId ?? props.actor.id;
  if (userId !== props.actor.id && !props.actor.manages) {
    throw new AppointmentError("NOT_ALLOWED", "You can only book appointments for yourself.");
  }
  try {
    return await retryLostSeat(capacity, () =>
      props.db.prisma.$transaction(async (tx) => {
        // one booking at a time per user, so two parallel requests cannot both pass the limit: an
        // advisory lock of the appointment service's own, keyed by the user (the users row belongs to
        // the user service, which this service only reads through its face)
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOKING_LOCK}::int, ${userId}::int)`;
        const user = await findUserContact(tx, userId);
        if (!user) throw new AppointmentError("USER_NOT_FOUND", "User not found");
        const limit = upcomingLimitOf(user.userType);
        const upcoming = await tx.appointment.count({
          where: { userId, status: { in: ["pending", "confirmed"] }, dateTime: { gt: now } },
        });
        if (upcoming >= limit) {
          throw new AppointmentError(
            "LIMIT_REACHED",
            limit === 1 ? PROSPECT_LIMIT_MESSAGE : CLIENT_LIMIT_MESSAGE,
          );
        }
        const seat = await freeSeat(tx, input.dateTime, capacity);
        if (seat === null) throw new AppointmentError("SLOT_TAKEN", SLOT_TAKEN_MESSAGE);
        const created = await tx.appointment.create({
          data: {
            seat,
            userId,
            appointmentType: input.appointmentType,
            dateTime: input.dateTime,
            status: "pending",
            notes: input.notes,
            timeZone,
            sequence: 0,
            reminderSentAt: reminderSentAtFor(input.dateTime, now),
          },
        });
        // the client's contact is the one read above, in this transaction
        const row = { ...created, user };
        await emit(
          tx,
          { type: "appointment.scheduled", payload: eventFields(row) },
          { actor: { kind: userId === props.actor.id ? "user" : "admin", userId: props.actor.id } },
        );
        return presentAppointment(row);
      }),
    );
  } catch (err) {
    if (isSlotTaken(err)) throw new AppointmentError("SLOT_TAKEN", SLOT_TAKEN_MESSAGE);
    throw err;
  }
}
