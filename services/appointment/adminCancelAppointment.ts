import { cancelReasonSchema } from "@schema/validation/appointment";
import { emit } from "@services/shared/events";
import type { AppointmentChangeProps } from "./changes";
import {
  assertUpcoming,
  auditAppointment,
  CANCEL_REFUSALS,
  changeLockedAppointment,
  updateAppointment,
} from "./changes";
import { AppointmentError } from "./errors";
import { type AppointmentView, eventFields, presentAppointment } from "./present";

/**
 * An administrator (manage:appointments, checked by the caller) cancels an upcoming appointment
 * with a reason the client will read: status cancelled, reason kept, sequence raised,
 * appointment.cancelled in the same transaction.
 * @throws AppointmentError INVALID_APPOINTMENT (no reason), APPOINTMENT_NOT_FOUND, NOT_CHANGEABLE
 * (already cancelled or past).
 */
export async function adminCancelAppointment(
  props: AppointmentChangeProps & { adminId: number; reason: unknown },
): Promise<AppointmentView> {
  const parsed = cancelReasonSchema.safeParse({ reason: props.reason });
  if (!parsed.success) {
    throw new AppointmentError("INVALID_APPOINTMENT", parsed.error.issues[0]?.message ?? "Invalid reason");
  }
  const { reason } = parsed.data;
  return changeLockedAppointment(props, async (tx, row, now) => {
    assertUpcoming(row, now, CANCEL_REFUSALS);
    const updated = await updateAppointment(tx, row, { status: "cancelled", cancelReason: reason });
    await emit(
      tx,
      {
        type: "appointment.cancelled",
        payload: { ...eventFields(updated), reason, cancelledBy: { userId: props.adminId, kind: "admin" } },
      },
      { actor: { kind: "admin", userId: props.adminId } },
    );
    await auditAppointment(tx, "appointment.cancelled", props.adminId, row, {
      before: { status: row.status },
      after: { status: updated.status, reason },
    });
    return presentAppointment(updated);
  });
}
