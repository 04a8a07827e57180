import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { AppointmentError } from "./errors";
import { type AppointmentView, eventFields, lockAppointment, presentAppointment } from "./present";

/**
 * An administrator (manage:appointments, checked by the caller) confirms a pending upcoming
 * appointment: status confirmed, sequence raised, appointment.confirmed in the same transaction.
 * Confirming a confirmed appointment changes nothing and emits nothing.
 * @throws AppointmentError APPOINTMENT_NOT_FOUND, NOT_CHANGEABLE (cancelled or past).
 */
export async function confirmAppointment(props: {
  db: Db;
  adminId: number;
  appointmentId: number;
  now?: Date;
}): Promise<AppointmentView> {
  const now = props.now ?? new Date();
  return props.db.prisma.$transaction(async (tx) => {
    const row = await lockAppointment(tx, props.appointmentId);
    if (row.status === "confirmed") return presentAppointment(row);
    if (row.status === "cancelled") {
      throw new AppointmentError("NOT_CHANGEABLE", "A cancelled appointment cannot be confirmed.");
    }
    if (row.dateTime.getTime() <= now.getTime()) {
      throw new AppointmentError("NOT_CHANGEABLE", "A past appointment cannot be confirmed.");
    }
    const updated = await tx.appointment.update({
      where: { id: row.id },
      data: { status: "confirmed", sequence: { increment: 1 } },
      include: { user: true },
    });
    await emit(
      tx,
      {
        type: "appointment.confirmed",
        payload: { ...eventFields(updated), confirmedBy: { userId: props.adminId, kind: "admin" } },
      },
      { actor: { kind: "admin", userId: props.adminId } },
    );
    await audit(tx, {
      action: "appointment.confirmed",
      actorId: props.adminId,
      targetType: "appointment",
      targetId: row.id,
      before: { status: row.status },
      after: { status: updated.status },
      metadata: { userId: row.userId, dateTime: row.dateTime.toISOString() },
    });
    return presentAppointment(updated);
  });
}
