import { useMutation, useQuery } from "@apollo/client/react";
import {
  Alert,
  Button,
  Callout,
  Card,
  Classes,
  H3,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { Calendar, Cross } from "@blueprintjs/icons";
import {
  AppointmentAvailabilityDocument,
  type AppointmentFieldsFragment,
  CancelMyAppointmentDocument,
  MyAppointmentsDocument,
} from "@web/generated/graphql";
import { runWithToast } from "@web/ui/mutationToast";
import { useState } from "react";
import { APPOINTMENT_TYPE_LABELS, browserTimeZone, localLabel, pacificLabel } from "./booking";

/** How each status shows. */
export const STATUS_TAGS: Record<AppointmentFieldsFragment["status"], { text: string; intent: Intent }> = {
  pending: { text: "Pending", intent: Intent.WARNING },
  confirmed: { text: "Confirmed", intent: Intent.SUCCESS },
  cancelled: { text: "Cancelled", intent: Intent.DANGER },
};

/** The signed-in user's upcoming appointments, soonest first, each with a cancel action. */
export function MyAppointmentsList() {
  const { data, loading, error, refetch } = useQuery(MyAppointmentsDocument, {
    fetchPolicy: "cache-and-network",
  });
  const [cancelling, setCancelling] = useState<AppointmentFieldsFragment | null>(null);
  const [cancel, cancelState] = useMutation(CancelMyAppointmentDocument, {
    refetchQueries: [MyAppointmentsDocument, AppointmentAvailabilityDocument],
    awaitRefetchQueries: true,
  });
  const zone = browserTimeZone();
  const appointments = data?.myAppointments ?? [];

  const confirmCancel = async () => {
    if (!cancelling) return;
    await runWithToast({
      run: async () => (await cancel({ variables: { id: cancelling.id } })).data?.cancelMyAppointment,
      success: "MutationCancelMyAppointmentSuccess",
      saved: () => ({
        title: "Appointment cancelled",
        description: `Your appointment on ${pacificLabel(cancelling.dateTime)} has been cancelled`,
      }),
      failure: "Failed to cancel appointment",
    });
    setCancelling(null);
  };

  return (
    <section className="my-appointments" aria-label="Your upcoming appointments">
      <H3>Your upcoming appointments</H3>
      {error && !data ? (
        <Callout intent={Intent.WARNING} title="Your appointments could not be loaded">
          <Button variant="minimal" size="small" text="Try again" onClick={() => void refetch()} />
        </Callout>
      ) : loading && !data ? (
        <Spinner size={24} aria-label="Loading your appointments" />
      ) : appointments.length === 0 ? (
        <NonIdealState icon={<Calendar />} title="No upcoming appointments" description="Book one above." />
      ) : (
        <ul className={`${Classes.LIST_UNSTYLED} my-appointments-list`}>
          {appointments.map((appointment) => {
            const status = STATUS_TAGS[appointment.status];
            const local = zone ? localLabel(appointment.dateTime, zone) : null;
            return (
              <li key={appointment.id}>
                <Card compact className="my-appointment" data-appointment-id={appointment.id}>
                  <div className="my-appointment-head">
                    <strong>{pacificLabel(appointment.dateTime)}</strong>
                    <Tag intent={status.intent} minimal round>
                      {status.text}
                    </Tag>
                  </div>
                  {local && <div className={Classes.TEXT_MUTED}>Your time: {local}</div>}
                  <div>{APPOINTMENT_TYPE_LABELS[appointment.appointmentType]}</div>
                  {appointment.notes && <div className={Classes.TEXT_MUTED}>Notes: {appointment.notes}</div>}
                  <Button
                    variant="outlined"
                    size="small"
                    intent={Intent.DANGER}
                    icon={<Cross />}
                    text="Cancel appointment"
                    aria-label={`Cancel appointment on ${pacificLabel(appointment.dateTime)}`}
                    onClick={() => setCancelling(appointment)}
                  />
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <Alert
        isOpen={cancelling !== null}
        intent={Intent.DANGER}
        icon={<Cross />}
        confirmButtonText="Cancel appointment"
        cancelButtonText="Keep it"
        loading={cancelState.loading}
        onConfirm={() => void confirmCancel()}
        onCancel={() => setCancelling(null)}
      >
        {cancelling && <p>Cancel your appointment on {pacificLabel(cancelling.dateTime)}?</p>}
      </Alert>
    </section>
  );
}
