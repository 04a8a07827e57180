import { cancelReasonSchema } from "@schema/validation/appointment";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { AppointmentError } from "./errors";
import { type AppointmentView, eventFields, lockAppointment, presentAppointment } from "./present";

/**
 * An administrator (manage:appointments, checked by the caller) cancels an upcoming appointment
 * with a reason the client will read: status cancelled, reason kept, sequence raised,
 * appointment.cancelled in the same transaction.
 * @throws AppointmentError INVALID_APPOINTMENT (no reason), APPOINTMENT_NOT_FOUND, NOT_CHANGEABLE
 * (already cancelled or past).
 */
export async function adminCancelAppointment(props: {
  db: Db;
  adminId: number;
  appointmentId: number;
  reason: unknown;
  now?: Date;
}): Promise<AppointmentView> {
  const now = props.now ?? new Date();
  const parsed = cancelReasonSchema.safeParse({ reason: props.reason });
  if (!parsed.success) {
    throw new AppointmentError("INVALID_APPOINTMENT", parsed.error.issues[0]?.message ?? "Invalid reason");
  }
  const { reason } = parsed.data;
  return props.db.prisma.$transaction(async (tx) => {
    const row = await lockAppointment(tx, props.appointmentId);
    if (row.status === "cancelled") {
      throw new AppointmentError("NOT_CHANGEABLE", "This appointment is already cancelled.");
    }
    if (row.dateTime.getTime() <= now.getTime()) {
      throw new AppointmentError("NOT_CHANGEABLE", "Only upcoming appointments can be cancelled.");
    }
    const updated = await tx.appointment.update({
      where: { id: row.id },
      data: { status: "cancelled", cancelReason: reason, sequence: { increment: 1 } },
      include: { user: true },
    });
    await emit(
      tx,
      {
        type: "appointment.cancelled",
        payload: { ...eventFields(updated), reason, cancelledBy: { userId: props.adminId, kind: "admin" } },
      },
      { actor: { kind: "admin", userId: props.adminId } },
    );
    await audit(tx, {
      action: "appointment.cancelled",
      actorId: props.adminId,
      targetType: "appointment",
      targetId: row.id,
      before: { status: row.status },
      after: { status: updated.status, reason },
      metadata: { userId: row.userId, dateTime: row.dateTime.toISOString() },
    });
    return presentAppointment(updated);
  });
}
