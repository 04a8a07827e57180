import type { PayloadOf } from "@schema/events";
import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { defineConsumer } from "@services/shared/events/consumer";
import { DateTime, IANAZone } from "luxon";
import type { EmailAttachment } from "../attachments";
import { APPOINTMENT_TYPE_LABELS, invitationAttachment } from "../invitation";
import { loadMailContext, type MailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";
import { defineEmailConsumer } from "./emailConsumer";

type AppointmentPayload = PayloadOf<"appointment.scheduled">;

/** "Monday, March 9, 2026" and "9:00 AM" of an instant in a zone. */
function wallClock(iso: string, zone: string): { date: string; time: string; zoneName: string } {
  const at = DateTime.fromISO(iso, { zone }).setLocale("en-US");
  return {
    date: at.toFormat("cccc, LLLL d, yyyy"),
    time: at.toFormat("h:mm a"),
    zoneName: at.toFormat("ZZZZ"),
  };
}

/**
 * "today", "tomorrow" or "on Wednesday, March 10, 2032": the day of `iso` seen from `from`, both in
 * Pacific time (a reminder is claimed 24 hours ahead, but a reschedule into the window or a sweep
 * after downtime may claim it the same day).
 */
export function dayWord(iso: string, from: string): string {
  const day = DateTime.fromISO(iso, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const today = DateTime.fromISO(from, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const days = Math.round(day.diff(today, "days").days);
  if (days === 0) return "today";
  if (days === 1) return "tomorrow";
  return `on ${wallClock(iso, BUSINESS_TIME_ZONE).date}`;
}

/**
 * The variables every appointment email shares: the time in Pacific time and, when the booking
 * browser's zone is known and is not Pacific, in that zone too.
 */
export function appointmentVariables(payload: AppointmentPayload, context: MailContext) {
  const pacific = wallClock(payload.dateTime, BUSINESS_TIME_ZONE);
  const own =
    payload.timeZone && IANAZone.isValidZone(payload.timeZone)
      ? wallClock(payload.dateTime, payload.timeZone)
      : null;
  const differs = own !== null && (own.date !== pacific.date || own.time !== pacific.time);
  return {
    firstName: payload.firstName,
    lastName: payload.lastName,
    appointmentDate: pacific.date,
    appointmentTime: pacific.time,
    timeZone: `Pacific time, ${pacific.zoneName}`,
    localTime: differs && own ? `${own.date} at ${own.time} (${payload.timeZone})` : null,
    appointmentType: APPOINTMENT_TYPE_LABELS[payload.appointmentType],
    notes: payload.notes ?? "—",
    link: `${context.publicUrl}/dashboard`,
  };
}

function invitationFor(
  payload: AppointmentPayload,
  context: MailContext,
  method: "REQUEST" | "CANCEL",
  status: "pending" | "confirmed" | "cancelled",
): EmailAttachment {
  return invitationAttachment({
    appointmentId: payload.appointmentId,
    dateTime: payload.dateTime,
    appointmentType: payload.appointmentType,
    status,
    sequence: payload.sequence,
    method,
    productName: context.productName,
    organizer: { name: `${context.productName} team`, email: context.teamAddress },
    attendee: { name: `${payload.firstName} ${payload.lastName}`.trim(), email: payload.email },
    publicUrl: context.publicUrl,
    notes: payload.notes,
  });
}

const TEMPLATES = {
  "appointment.scheduled": "appointment_scheduled",
  "appointment.confirmed": "appointment_confirmed",
  "appointment.cancelled": "appointment_cancelled",
  "appointment.rescheduled": "appointment_rescheduled",
  "appointment.reminder_due": "appointment_reminder",
} as const;

/**
 * Each change of an appointment, and its reminder, → an email to the client with the calendar
 * invitation: REQUEST (the same UID every time, SEQUENCE from the event) or, once cancelled, CANCEL.
 */
export const appointmentEmails = defineConsumer({
  name: "email_appointments",
  events: [
    "appointment.scheduled",
    "appointment.confirmed",
    "appointment.cancelled",
    "appointment.rescheduled",
    "appointment.reminder_due",
  ],
  async handle(envelope, tx) {
    const payload = envelope.payload;
    const context = await loadMailContext(tx, [TEMPLATES[envelope.type]]);
    const variables: Record<string, string | null> = appointmentVariables(payload, context);
    let status = payload.status ?? "pending";
    if (envelope.type === "appointment.confirmed") status = "confirmed";
    if (envelope.type === "appointment.cancelled") {
      status = "cancelled";
      variables.cancelReason = envelope.payload.reason;
    }
    if (envelope.type === "appointment.reminder_due") {
      variables.appointmentDay = dayWord(payload.dateTime, envelope.payload.claimedAt ?? envelope.occurredAt);
    }
    if (envelope.type === "appointment.rescheduled") {
      const previous = wallClock(envelope.payload.previousDateTime, BUSINESS_TIME_ZONE);
      variables.previousDate = previous.date;
      variables.previousTime = previous.time;
    }
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: TEMPLATES[envelope.type],
      to: payload.email,
      context,
      variables,
      attachments: [invitationFor(payload, context, status === "cancelled" ? "CANCEL" : "REQUEST", status)],
    });
  },
});

/** appointment.scheduled → the team's address hears of the new booking. */
export const teamAppointmentNotification = defineEmailConsumer({
  name: "email_team_appointments",
  events: ["appointment.scheduled"],
  templateKey: "team_appointment_booked",
  to: (_envelope, context) => context.teamAddress,
  variables: ({ payload }, context) => ({
    ...appointmentVariables(payload, context),
    userName: `${payload.firstName} ${payload.lastName}`.trim(),
    userEmail: payload.email,
    link: `${context.publicUrl}/admin/appointments`,
  }),
});
