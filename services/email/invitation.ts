import { BUSINESS_TIME_ZONE, SLOT_MINUTES } from "@schema/validation/appointment";
import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from "ical-generator";
import { DateTime } from "luxon";
import type { EmailAttachment } from "./attachments";

/** What an appointment's calendar invitation says. */
export interface InvitationProps {
  appointmentId: number;
  /** start, UTC ISO */
  dateTime: string;
  appointmentType: "phone" | "zoom" | "teams";
  /** pending shows as TENTATIVE, confirmed as CONFIRMED */
  status: "pending" | "confirmed" | "cancelled";
  /** iCalendar SEQUENCE: raised on every change, so calendars apply the newest */
  sequence: number;
  method: "REQUEST" | "CANCEL";
  productName: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** the portal's public address (the UID's domain, and the link in the description) */
  publicUrl: string;
  notes: string | null;
}

/** How each appointment type reads in a calendar. */
export const APPOINTMENT_TYPE_LABELS: Record<InvitationProps["appointmentType"], string> = {
  phone: "Phone call",
  zoom: "Zoom meeting",
  teams: "Microsoft Teams meeting",
};

/** The UID of an appointment's invitation: the same for every message about it, so calendars update one event. */
export function invitationUid(appointmentId: number, publicUrl: string): string {
  return `appointment-${appointmentId}@${new URL(publicUrl).hostname}`;
}

/**
 * The iCalendar text (RFC 5545, METHOD REQUEST or CANCEL) of an appointment: one 30-minute VEVENT
 * in America/Los_Angeles with its VTIMEZONE, the team as organizer and the client as attendee.
 * @throws when the public URL is not a URL.
 */
export function appointmentInvitation(props: InvitationProps): string {
  const start = DateTime.fromISO(props.dateTime, { zone: BUSINESS_TIME_ZONE });
  const cancelled = props.method === "CANCEL" || props.status === "cancelled";
  const calendar = ical({
    prodId: { company: props.productName, product: "Client Portal", language: "EN" },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const link = `${props.publicUrl}/dashboard`;
  calendar.createEvent({
    id: invitationUid(props.appointmentId, props.publicUrl),
    sequence: props.sequence,
    start,
    end: start.plus({ minutes: SLOT_MINUTES }),
    timezone: BUSINESS_TIME_ZONE,
    stamp: DateTime.utc(),
    summary: `${props.productName} consultation (${APPOINTMENT_TYPE_LABELS[props.appointmentType]})`,
    description: [
      `${APPOINTMENT_TYPE_LABELS[props.appointmentType]} with the ${props.productName} team.`,
      props.notes ? `Your notes: ${props.notes}` : null,
      `Your appointments: ${link}`,
    ]
      .filter(Boolean)
      .join("\n"),
    url: link,
    status: cancelled
      ? ICalEventStatus.CANCELLED
      : props.status === "confirmed"
        ? ICalEventStatus.CONFIRMED
        : ICalEventStatus.TENTATIVE,
    organizer: props.organizer,
    attendees: [
      {
        name: props.attendee.name,
        email: props.attendee.email,
        role: ICalAttendeeRole.REQ,
        status: cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.NEEDSACTION,
        rsvp: !cancelled,
      },
    ],
  });
  // ical-generator writes a VTIMEZONE only with a calendar-wide zone, which would also move DTSTAMP
  // off UTC; the zone's definition goes in by hand, before the event that refers to it.
  const vtimezone = getVtimezoneComponent(BUSINESS_TIME_ZONE);
  const text = calendar.toString();
  return vtimezone
    ? text.replace("BEGIN:VEVENT", `${vtimezone.trimEnd().replace(/\r?\n/g, "\r\n")}\r\nBEGIN:VEVENT`)
    : text;
}

/**
 * An appointment's invitation as an email attachment: `invite.ics` (REQUEST) or `cancel.ics`
 * (CANCEL), content type `text/calendar; charset=utf-8; method=...`.
 * @throws when the public URL is not a URL.
 */
export function invitationAttachment(props: InvitationProps): EmailAttachment {
  const content = appointmentInvitation(props);
  const method = /^METHOD:(\w+)/m.exec(content)?.[1] ?? props.method;
  return {
    filename: method === "CANCEL" ? "cancel.ics" : "invite.ics",
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
  };
}
