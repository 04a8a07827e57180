import { emit } from "@services/shared/events";
import type { AppointmentChangeProps } from "./changes";
import { assertUpcoming, auditAppointment, changeLockedAppointment, updateAppointment } from "./changes";
import { type AppointmentView, eventFields, presentAppointment } from "./present";

/**
 * An administrator (manage:appointments, checked by the caller) confirms a pending upcoming
 * appointment: status confirmed, sequence raised, appointment.confirmed in the same transaction.
 * Confirming a confirmed appointment changes nothing and emits nothing.
 * @throws AppointmentError APPOINTMENT_NOT_FOUND, NOT_CHANGEABLE (cancelled or past).
 */
export async function confirmAppointment(
  props: AppointmentChangeProps & { adminId: number },
): Promise<AppointmentView> {
  return changeLockedAppointment(props, async (tx, row, now) => {
    if (row.status === "confirmed") return presentAppointment(row);
    assertUpcoming(row, now, {
      cancelled: "A cancelled appointment cannot be confirmed.",
      past: "A past appointment cannot be confirmed.",
    });
    const updated = await updateAppointment(tx, row, { status: "confirmed" });
    await emit(
      tx,
      {
        type: "appointment.confirmed",
        payload: { ...eventFields(updated), confirmedBy: { userId: props.adminId, kind: "admin" } },
      },
      { actor: { kind: "admin", userId: props.adminId } },
    );
    await auditAppointment(tx, "appointment.confirmed", props.adminId, row, {
      before: { status: row.status },
      after: { status: updated.status },
    });
    return presentAppointment(updated);
  });
}
