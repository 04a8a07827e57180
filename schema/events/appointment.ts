import { z } from "zod";
import { defineEvent, id, isoDate } from "./define";

// Appointment events carry what the email service needs for the message and its .ics invitation.

const appointment = {
  appointmentId: id,
  userId: id,
  email: z.email(),
  firstName: z.string(),
  lastName: z.string(),
  appointmentType: z.enum(["phone", "zoom", "teams"]),
  /** start, UTC ISO */
  dateTime: isoDate,
  /** the client's IANA time zone, when known */
  timeZone: z.string().nullable(),
  notes: z.string().nullable(),
  /** iCalendar SEQUENCE after this change */
  sequence: z.number().int().min(0),
  /** the status after this change (events written before it was added lack it) */
  status: z.enum(["pending", "confirmed", "cancelled"]).optional(),
};

const by = z.object({ userId: id.nullable(), kind: z.enum(["client", "admin", "system"]) });

export const appointmentScheduled = defineEvent("appointment.scheduled", 1, z.object({ ...appointment }));

export const appointmentConfirmed = defineEvent(
  "appointment.confirmed",
  1,
  z.object({ ...appointment, confirmedBy: by }),
);

export const appointmentCancelled = defineEvent(
  "appointment.cancelled",
  1,
  z.object({ ...appointment, reason: z.string().nullable(), cancelledBy: by }),
);

export const appointmentRescheduled = defineEvent(
  "appointment.rescheduled",
  1,
  z.object({ ...appointment, previousDateTime: isoDate, rescheduledBy: by }),
);

/** The sweep claimed the appointment's reminder: it starts within 24 hours (sent once). */
export const appointmentReminderDue = defineEvent(
  "appointment.reminder_due",
  1,
  z.object({
    ...appointment,
    /** when the sweep claimed it (UTC ISO): "today" or "tomorrow" in the reminder is reckoned from it */
    claimedAt: isoDate.optional(),
  }),
);

export const appointmentEvents = [
  appointmentScheduled,
  appointmentConfirmed,
  appointmentCancelled,
  appointmentRescheduled,
  appointmentReminderDue,
] as const;
