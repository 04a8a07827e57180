import { useMutation, useQuery } from "@apollo/client/react";
import "@blueprintjs/datetime/lib/css/blueprint-datetime.css";
import "./appointments.css";
import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H3,
  HTMLSelect,
  Intent,
  Radio,
  RadioGroup,
  TextArea,
} from "@blueprintjs/core";
import { DatePicker } from "@blueprintjs/datetime";
import { Confirm } from "@blueprintjs/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { APPOINTMENT_NOTES_MAX, APPOINTMENT_TYPES } from "@schema/validation/appointment";
import {
  AppointmentAvailabilityDocument,
  BookAppointmentDocument,
  MyAppointmentsDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import enUS from "date-fns/locale/en-US";
import { useId, useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import {
  APPOINTMENT_TYPE_LABELS,
  BOOKING_TEXT,
  type BookingFormInput,
  type BookingFormValues,
  bookingFormSchema,
  bookingWindow,
  browserTimeZone,
  businessDateOfPicked,
  hasFreeSlot,
  pacificLabel,
  pickerDateOf,
  slotOptions,
} from "./booking";

const DEFAULTS: BookingFormInput = { date: null, dateTime: null, appointmentType: "phone", notes: "" };

/**
 * The appointment form (spec §2, §5, §8): a date picker (past days, weekends, days beyond 60 days
 * and full days disabled), 30-minute slots from 9:00 AM to 4:30 PM Pacific with taken ones
 * disabled, the appointment type, and notes with a 250-character counter. Booking goes through the
 * GraphQL bookAppointment mutation; the user's list and the availability are fetched again after.
 */
export function AppointmentScheduler() {
  // recomputed on each render, so a console left open past midnight Pacific moves on a day
  const bookable = bookingWindow(new Date());
  const ids = { date: useId(), time: useId(), type: useId(), notes: useId(), count: useId() };
  const availability = useQuery(AppointmentAvailabilityDocument, {
    variables: { from: bookable.first, to: bookable.last },
    fetchPolicy: "cache-and-network",
  });
  const days = useMemo(
    () => new Map((availability.data?.appointmentAvailability ?? []).map((d) => [d.date, d.slots])),
    [availability.data],
  );
  const [book, booking] = useMutation(BookAppointmentDocument, {
    refetchQueries: [MyAppointmentsDocument, AppointmentAvailabilityDocument],
    awaitRefetchQueries: true,
  });
  const form = useForm<BookingFormInput, unknown, BookingFormValues>({
    resolver: zodResolver(bookingFormSchema),
    defaultValues: DEFAULTS,
  });
  const date = form.watch("date");
  const dateTime = form.watch("dateTime");
  const notes = form.watch("notes") ?? "";
  const notesError = form.formState.errors.notes?.message;
  // without availability (it failed to load) the rules alone decide; the server has the last word
  const unknown = Boolean(availability.error) && !availability.data;
  const options = date ? slotOptions(date, unknown ? null : (days.get(date) ?? [])) : [];

  const missingInformation = () =>
    showToast({
      title: BOOKING_TEXT.missingTitle,
      description: BOOKING_TEXT.missingDescription,
      intent: "destructive",
    });
  const onInvalid = () => {
    // the notes' own message shows under them; a missing date or time still gets its toast
    const { date: day, dateTime: slot } = form.getValues();
    if (!day || !slot) missingInformation();
  };
  const submit = form.handleSubmit(async (values) => {
    if (!values.date || !values.dateTime) {
      missingInformation();
      return;
    }
    try {
      const result = await book({
        variables: {
          appointmentType: values.appointmentType,
          dateTime: values.dateTime,
          notes: values.notes,
          timeZone: browserTimeZone(),
        },
      });
      const answer = result.data?.bookAppointment;
      if (answer?.__typename === "MutationBookAppointmentSuccess") {
        showToast({
          title: BOOKING_TEXT.scheduledTitle,
          description: BOOKING_TEXT.scheduledDescription,
          intent: Intent.SUCCESS,
        });
        form.reset({ ...DEFAULTS, appointmentType: values.appointmentType });
        return;
      }
      showToast({
        title: BOOKING_TEXT.failedTitle,
        description: answer?.__typename === "AppError" ? answer.message : BOOKING_TEXT.failedTitle,
        intent: "destructive",
      });
      // a slot taken meanwhile shows as taken
      if (answer?.__typename === "AppError" && answer.code === "CONFLICT") void availability.refetch();
    } catch {
      showToast({
        title: BOOKING_TEXT.failedTitle,
        description: BOOKING_TEXT.failedTitle,
        intent: "destructive",
      });
    }
  }, onInvalid);

  return (
    <form className="appointment-form" onSubmit={submit} noValidate aria-label="Schedule an appointment">
      <H3>Schedule a consultation</H3>
      {availability.error && (
        <Callout intent={Intent.WARNING} title="Free times could not be loaded">
          Times shown may already be taken.{" "}
          <Button
            variant="minimal"
            size="small"
            text="Try again"
            onClick={() => void availability.refetch()}
          />
        </Callout>
      )}
      <div className="appointment-form-grid">
        <FormGroup label={<span id={ids.date}>Date</span>} helperText="Monday to Friday, up to 60 days ahead">
          <fieldset aria-labelledby={ids.date} className="appointment-date-picker">
            <Controller
              control={form.control}
              name="date"
              render={({ field }) => (
                <DatePicker
                  value={field.value ? pickerDateOf(field.value) : null}
                  minDate={pickerDateOf(bookable.first)}
                  maxDate={pickerDateOf(bookable.last)}
                  locale={enUS}
                  dayPickerProps={{
                    disabled: [
                      { dayOfWeek: [0, 6] },
                      (day: Date) =>
                        !availability.loading &&
                        !unknown &&
                        !hasFreeSlot(days.get(businessDateOfPicked(day))),
                    ],
                  }}
                  onChange={(picked) => {
                    field.onChange(picked ? businessDateOfPicked(picked) : null);
                    form.setValue("dateTime", null);
                  }}
                />
              )}
            />
          </fieldset>
        </FormGroup>
        <div>
          <FormGroup label="Time (Pacific time)" labelFor={ids.time}>
            <HTMLSelect
              id={ids.time}
              fill
              value={dateTime ?? ""}
              disabled={!date}
              onChange={(event) => form.setValue("dateTime", event.currentTarget.value || null)}
              options={[
                { value: "", label: date ? "Select a time" : "Select a date first" },
                ...options.map((o) => ({
                  value: o.dateTime,
                  label: o.reason === "taken" ? `${o.label} (taken)` : o.label,
                  disabled: o.disabled,
                })),
              ]}
            />
          </FormGroup>
          <FormGroup label="Appointment type" labelFor={ids.type}>
            <Controller
              control={form.control}
              name="appointmentType"
              render={({ field }) => (
                <RadioGroup
                  name={ids.type}
                  inline
                  selectedValue={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.value)}
                >
                  {APPOINTMENT_TYPES.map((type) => (
                    <Radio key={type} value={type} label={APPOINTMENT_TYPE_LABELS[type]} />
                  ))}
                </RadioGroup>
              )}
            />
          </FormGroup>
          <FormGroup
            label="Notes (optional)"
            labelFor={ids.notes}
            intent={notesError ? Intent.DANGER : Intent.NONE}
            helperText={
              <span id={ids.count} aria-live="polite">
                {notesError ? `${notesError}. ` : ""}
                {notes.length}/{APPOINTMENT_NOTES_MAX} characters
              </span>
            }
          >
            <Controller
              control={form.control}
              name="notes"
              render={({ field }) => (
                <TextArea
                  id={ids.notes}
                  fill
                  rows={4}
                  aria-describedby={ids.count}
                  intent={notesError ? Intent.DANGER : Intent.NONE}
                  placeholder="What would you like to discuss?"
                  name={field.name}
                  value={field.value ?? ""}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                />
              )}
            />
          </FormGroup>
          {dateTime && (
            <p className={Classes.TEXT_MUTED} aria-live="polite">
              {pacificLabel(dateTime)}
            </p>
          )}
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            icon={<Confirm />}
            text="Schedule Appointment"
            loading={booking.loading}
          />
        </div>
      </div>
    </form>
  );
}

/** The 'why schedule' side card (spec §2). */
export function WhyScheduleCard() {
  return (
    <Card className="appointment-why" compact>
      <H3>Why schedule a consultation?</H3>
      <ul className={Classes.LIST}>
        <li>Review your receivables with an experienced advisor.</li>
        <li>Find the collection and consulting services that fit your business.</li>
        <li>Get a walkthrough of the ESRT Pro app and your client portal.</li>
        <li>Free, with no obligation: 30 minutes by phone, Zoom or Microsoft Teams.</li>
      </ul>
    </Card>
  );
}
