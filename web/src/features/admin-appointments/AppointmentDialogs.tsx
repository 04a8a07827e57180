import { useMutation, useQuery } from "@apollo/client/react";
import {
  Alert,
  Button,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
  TextArea,
} from "@blueprintjs/core";
import { APPOINTMENT_MESSAGES } from "@schema/validation/appointment";
import { pacificLabel, slotOptions } from "@web/features/appointments/booking";
import {
  type AdminAppointmentFieldsFragment,
  AdminAppointmentsDocument,
  AdminCancelAppointmentDocument,
  AppointmentAvailabilityDocument,
  ConfirmAppointmentDocument,
  RescheduleAppointmentDocument,
} from "@web/generated/graphql";
import { toastAnswer } from "@web/ui/mutationToast";
import { useId, useState } from "react";
import { businessToday } from "./adminAppointments";

/** An action an administrator asked for, waiting for its confirmation dialog. */
export type AppointmentAction = {
  kind: "confirm" | "cancel" | "reschedule";
  appointment: AdminAppointmentFieldsFragment;
};

const REFETCH = {
  refetchQueries: [AdminAppointmentsDocument, AppointmentAvailabilityDocument],
  awaitRefetchQueries: true,
};

function clientName(a: AdminAppointmentFieldsFragment): string {
  return `${a.clientFirstName} ${a.clientLastName}`.trim() || a.clientEmail;
}

/** The confirmation dialog of the action asked for, if any. */
export function AppointmentActionDialog({
  action,
  onClose,
}: {
  action: AppointmentAction | null;
  onClose(): void;
}) {
  if (!action) return null;
  if (action.kind === "confirm") return <ConfirmAlert appointment={action.appointment} onClose={onClose} />;
  if (action.kind === "cancel") return <CancelDialog appointment={action.appointment} onClose={onClose} />;
  return <RescheduleDialog appointment={action.appointment} onClose={onClose} />;
}

function ConfirmAlert({
  appointment,
  onClose,
}: {
  appointment: AdminAppointmentFieldsFragment;
  onClose(): void;
}) {
  const [confirm, state] = useMutation(ConfirmAppointmentDocument, REFETCH);
  const run = async () => {
    try {
      const result = await confirm({ variables: { id: appointment.id } });
      toastAnswer(
        result.data?.confirmAppointment,
        {
          title: "Appointment confirmed",
          description: `${clientName(appointment)} will receive the invitation`,
        },
        "Failed to confirm appointment",
      );
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to confirm appointment");
    }
    onClose();
  };
  return (
    <Alert
      isOpen
      intent={Intent.SUCCESS}
      confirmButtonText="Confirm appointment"
      cancelButtonText="Back"
      loading={state.loading}
      onConfirm={() => void run()}
      onCancel={onClose}
    >
      <p>
        Confirm {clientName(appointment)}'s appointment on {pacificLabel(appointment.dateTime)}? The client is
        emailed the calendar invitation.
      </p>
    </Alert>
  );
}

function CancelDialog({
  appointment,
  onClose,
}: {
  appointment: AdminAppointmentFieldsFragment;
  onClose(): void;
}) {
  const [reason, setReason] = useState("");
  const [touched, setTouched] = useState(false);
  const [cancel, state] = useMutation(AdminCancelAppointmentDocument, REFETCH);
  const id = useId();
  const missing = reason.trim() === "";
  const run = async () => {
    setTouched(true);
    if (missing) return;
    try {
      const result = await cancel({ variables: { id: appointment.id, reason: reason.trim() } });
      const ok = toastAnswer(
        result.data?.adminCancelAppointment,
        { title: "Appointment cancelled", description: `${clientName(appointment)} is told why by email` },
        "Failed to cancel appointment",
      );
      if (ok) onClose();
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to cancel appointment");
    }
  };
  return (
    <Dialog isOpen title="Cancel appointment" onClose={onClose}>
      <DialogBody>
        <p>
          {clientName(appointment)} · {pacificLabel(appointment.dateTime)}
        </p>
        <FormGroup
          label="Reason (the client reads it)"
          labelFor={id}
          intent={touched && missing ? Intent.DANGER : Intent.NONE}
          helperText={touched && missing ? APPOINTMENT_MESSAGES.reason : `${reason.length}/500 characters`}
        >
          <TextArea
            id={id}
            fill
            rows={3}
            maxLength={500}
            value={reason}
            intent={touched && missing ? Intent.DANGER : Intent.NONE}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Back" onClick={onClose} />
            <Button
              intent={Intent.DANGER}
              text="Cancel appointment"
              loading={state.loading}
              onClick={() => void run()}
            />
          </>
        }
      />
    </Dialog>
  );
}

function RescheduleDialog({
  appointment,
  onClose,
}: {
  appointment: AdminAppointmentFieldsFragment;
  onClose(): void;
}) {
  const [date, setDate] = useState("");
  const [dateTime, setDateTime] = useState("");
  const [reschedule, state] = useMutation(RescheduleAppointmentDocument, REFETCH);
  const ids = { date: useId(), time: useId() };
  const availability = useQuery(AppointmentAvailabilityDocument, {
    variables: { from: date },
    skip: !/^\d{4}-\d{2}-\d{2}$/.test(date),
    fetchPolicy: "network-only",
  });
  const day = availability.data?.appointmentAvailability[0];
  const options = date && day ? slotOptions(date, day.slots) : [];
  const free = options.filter((o) => !o.disabled);
  const run = async () => {
    if (!dateTime) return;
    try {
      const result = await reschedule({ variables: { id: appointment.id, dateTime } });
      const ok = toastAnswer(
        result.data?.rescheduleAppointment,
        { title: "Appointment rescheduled", description: `Now on ${pacificLabel(dateTime)}` },
        "Failed to reschedule appointment",
      );
      if (ok) onClose();
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to reschedule appointment");
    }
  };
  return (
    <Dialog isOpen title="Reschedule appointment" onClose={onClose}>
      <DialogBody>
        <p>
          {clientName(appointment)} · now {pacificLabel(appointment.dateTime)}
        </p>
        <FormGroup label="New date" labelFor={ids.date} helperText="A weekday within 60 days">
          <InputGroup
            id={ids.date}
            type="date"
            min={businessToday()}
            value={date}
            onChange={(e) => {
              setDate(e.currentTarget.value);
              setDateTime("");
            }}
          />
        </FormGroup>
        <FormGroup label="New time (Pacific time)" labelFor={ids.time}>
          <HTMLSelect
            id={ids.time}
            fill
            disabled={!date || availability.loading}
            value={dateTime}
            onChange={(e) => setDateTime(e.currentTarget.value)}
            options={[
              {
                value: "",
                label: !date
                  ? "Select a date first"
                  : free.length
                    ? "Select a free time"
                    : "No free time that day",
              },
              ...options.map((o) => ({
                value: o.dateTime,
                label: o.reason === "taken" ? `${o.label} (taken)` : o.label,
                disabled: o.disabled,
              })),
            ]}
          />
        </FormGroup>
        {availability.error && <p className={Classes.INTENT_DANGER}>{availability.error.message}</p>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Back" onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text="Reschedule"
              disabled={!dateTime}
              loading={state.loading}
              onClick={() => void run()}
            />
          </>
        }
      />
    </Dialog>
  );
}
