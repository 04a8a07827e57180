import { emit } from "@services/shared/events";
import type { AppointmentChangeProps } from "./changes";
import { assertUpcoming, CANCEL_REFUSALS, changeLockedAppointment, updateAppointment } from "./changes";
import { APPOINTMENT_NOT_FOUND_MESSAGE, AppointmentError } from "./errors";
import { type AppointmentView, eventFields, presentAppointment } from "./present";

/**
 * A user cancels one of their own upcoming appointments: status cancelled, sequence raised, and
 * appointment.cancelled in the same transaction. Someone else's appointment is reported as not
 * found, so ids reveal nothing.
 * @throws AppointmentError APPOINTMENT_NOT_FOUND, NOT_CHANGEABLE (already cancelled or past).
 */
export async function cancelMyAppointment(
  props: AppointmentChangeProps & { userId: number },
): Promise<AppointmentView> {
  return changeLockedAppointment(props, async (tx, row, now) => {
    if (row.userId !== props.userId) {
      throw new AppointmentError("APPOINTMENT_NOT_FOUND", APPOINTMENT_NOT_FOUND_MESSAGE);
    }
    assertUpcoming(row, now, CANCEL_REFUSALS);
    const updated = await updateAppointment(tx, row, { status: "cancelled" });
    await emit(
      tx,
      {
        type: "appointment.cancelled",
        payload: {
          ...eventFields(updated),
          reason: null,
          cancelledBy: { userId: props.userId, kind: "client" },
        },
      },
      { actor: { kind: "user", userId: props.userId } },
    );
    return presentAppointment(updated);
  });
}
