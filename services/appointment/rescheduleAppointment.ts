import { appointmentDateTimeSchema, slotRuleViolation } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { assertUpcoming, auditAppointment, updateAppointment } from "./changes";
import { AppointmentError, SLOT_TAKEN_MESSAGE } from "./errors";
import {
  type AppointmentView,
  eventFields,
  isSlotTaken,
  lockAppointment,
  presentAppointment,
} from "./present";
import { freeSeat, retryLostSeat, slotCapacity } from "./seats";

/**
 * An administrator (manage:appointments, checked by the caller) moves an upcoming appointment to
 * another free, valid slot: dateTime changed, sequence raised, status kept, the reminder due again
 * (reminderSentAt cleared), appointment.rescheduled (with the previous dateTime) in the same
 * transaction.
 * @throws AppointmentError INVALID_APPOINTMENT (a slot rule's message), APPOINTMENT_NOT_FOUND,
 * NOT_CHANGEABLE (cancelled or past, or the same time), SLOT_TAKEN.
 */
export async function rescheduleAppointment(props: {
  db: Db;
  adminId: number;
  appointmentId: number;
  dateTime: unknown;
  /** bookings one slot may hold (default APPOINTMENT_SLOT_CAPACITY) */
  capacity?: number;
  now?: Date;
}): Promise<AppointmentView> {
  const capacity = props.capacity ?? slotCapacity();
  const now = props.now ?? new Date();
  const parsed = appointmentDateTimeSchema.safeParse(props.dateTime);
  if (!parsed.success) {
    throw new AppointmentError(
      "INVALID_APPOINTMENT",
      parsed.error.issues[0]?.message ?? "Invalid date and time",
    );
  }
  const dateTime = parsed.data;
  const problem = slotRuleViolation(dateTime, now);
  if (problem) throw new AppointmentError("INVALID_APPOINTMENT", problem);
  try {
    return await retryLostSeat(capacity, () =>
      props.db.prisma.$transaction(async (tx) => {
        const row = await lockAppointment(tx, props.appointmentId);
        assertUpcoming(row, now, {
          cancelled: "A cancelled appointment cannot be rescheduled.",
          past: "A past appointment cannot be rescheduled.",
        });
        if (row.dateTime.getTime() === dateTime.getTime()) {
          throw new AppointmentError("NOT_CHANGEABLE", "The appointment is already at this time.");
        }
        const seat = await freeSeat(tx, dateTime, capacity);
        if (seat === null) throw new AppointmentError("SLOT_TAKEN", SLOT_TAKEN_MESSAGE);
        // a new time deserves its own reminder: the sweep claims it 24 hours before (at once when
        // the new time is already that close)
        const updated = await updateAppointment(tx, row, { dateTime, seat, reminderSentAt: null });
        await emit(
          tx,
          {
            type: "appointment.rescheduled",
            payload: {
              ...eventFields(updated),
              previousDateTime: row.dateTime.toISOString(),
              rescheduledBy: { userId: props.adminId, kind: "admin" },
            },
          },
          { actor: { kind: "admin", userId: props.adminId } },
        );
        await auditAppointment(tx, "appointment.rescheduled", props.adminId, row, {
          before: { dateTime: row.dateTime.toISOString() },
          after: { dateTime: updated.dateTime.toISOString() },
          metadata: { userId: row.userId },
        });
        return presentAppointment(updated);
      }),
    );
  } catch (err) {
    if (isSlotTaken(err)) throw new AppointmentError("SLOT_TAKEN", SLOT_TAKEN_MESSAGE);
    throw err;
  }
}
