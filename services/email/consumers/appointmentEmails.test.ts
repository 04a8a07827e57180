import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import {
  adminCancelAppointment,
  bookAppointment,
  cancelMyAppointment,
  claimDueReminders,
  confirmAppointment,
  rescheduleAppointment,
} from "@services/appointment";
import type { Db } from "@services/shared/db";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import type { MailContext } from "../mailContext";
import type { ReceivedMail, TestSmtp } from "../testing/smtpServer";
import { redeliverEvent, registerEmailPipeline, TEST_PUBLIC_URL, TEST_TEAM_ADDRESS } from "../testing/world";
import { appointmentVariables } from "./appointmentEmails";

// Appointment emails end to end: the appointment service commits a change, the relay publishes it,
// the email service queues the message with its invitation, the sender delivers it over real SMTP,
// and the invitation is read back with an iCalendar parser as a calendar would read it.

const pipeline = registerEmailPipeline();
let db: Db;
let smtp: TestSmtp;

beforeAll(async () => {
  ({ db, smtp } = pipeline());
});

/** Publishes a committed event once more, as JetStream does after a crash before the ack. */
const redeliver = (type: string, appointmentId: number): Promise<void> =>
  redeliverEvent(pipeline(), type, "appointmentId", appointmentId);
// Monday 8 March 2032 in Los Angeles: the first weekday after the switch to daylight time (14 March
// 2032 is the switch; the week before is standard time, the week after daylight time).
const NOW = new Date("2032-03-08T12:00:00Z");

function pacific(date: string, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toJSDate();
}

/** `userId` books a consultation of `appointmentType` at `dateTime` as of NOW, seen from `timeZone`. */
function bookAs(userId: number, appointmentType: string, dateTime: Date, timeZone?: string) {
  return bookAppointment({
    db,
    actor: { id: userId, manages: false },
    input: { appointmentType, dateTime: dateTime.toISOString() },
    timeZone,
    now: NOW,
  });
}

/** The administrator `adminId` moves the appointment `appointmentId` to `dateTime`, as of `now`. */
function moveAppointment(adminId: number, appointmentId: number, dateTime: Date, now = NOW) {
  return rescheduleAppointment({ db, adminId, appointmentId, dateTime: dateTime.toISOString(), now });
}

async function mailsTo(to: string, count: number): Promise<ReceivedMail[]> {
  await waitFor(() => smtp.to(to).length >= count, `${count} message(s) to ${to}`);
  return smtp.to(to);
}

/** The invitation of a received message, parsed as a calendar reads it. */
function invitation(mail: ReceivedMail | undefined) {
  // one text/calendar alternative carrying the method (what shows accept/decline) and one .ics file
  const parts = mail?.attachments.filter((a) => a.mimeType === "text/calendar") ?? [];
  const files = mail?.attachments.filter((a) => a.filename?.endsWith(".ics")) ?? [];
  expect(parts).toHaveLength(1);
  expect(files).toHaveLength(1);
  const part = parts[0];
  if (!part) throw new Error(`no text/calendar part in "${mail?.subject}"`);
  expect(files[0]?.content).toBe(part.content);
  expect(files[0]?.filename).toBe(part.method === "CANCEL" ? "cancel.ics" : "invite.ics");
  const calendar = new ICAL.Component(ICAL.parse(part.content));
  const vevent = calendar.getFirstSubcomponent("vevent");
  if (!vevent) throw new Error("no VEVENT");
  const event = new ICAL.Event(vevent);
  const start = vevent.getFirstProperty("dtstart");
  const end = vevent.getFirstProperty("dtend");
  return {
    partMethod: part.method,
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    tzid: start?.getParameter("tzid"),
    endTzid: end?.getParameter("tzid"),
    timezones: calendar.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")),
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
    status: vevent.getFirstPropertyValue("status"),
    summary: event.summary,
    attendees: event.attendees.map((a) => String(a.getFirstValue()).toLowerCase()),
    organizer: String(vevent.getFirstPropertyValue("organizer")).toLowerCase(),
  };
}

describe("appointment emails with calendar invitations", () => {
  it("follows one appointment from booking to cancellation with one UID and a rising SEQUENCE", async () => {
    const client = await createUser(db, { userType: "client", firstName: "Grace", lastName: "Hopper" });
    const admin = await createAdmin(db);
    const booked = await bookAppointment({
      db,
      actor: { id: client.id, manages: false },
      input: {
        appointmentType: "zoom",
        dateTime: pacific("2032-03-10", "09:00").toISOString(),
        notes: "Q1 aging",
      },
      timeZone: "Europe/Paris",
      now: NOW,
    });

    const [scheduled] = await mailsTo(client.email, 1);
    expect(scheduled?.subject).toBe("Your consultation request for Wednesday, March 10, 2032");
    // Pacific time (standard time this week) and the client's own zone
    expect(scheduled?.text).toContain("When: Wednesday, March 10, 2032 at 9:00 AM (Pacific time, PST)");
    expect(scheduled?.text).toContain("Your time: Wednesday, March 10, 2032 at 6:00 PM (Europe/Paris)");
    expect(scheduled?.text).toContain("How: Zoom meeting");
    expect(scheduled?.html).toContain("<strong>Your time:</strong> Wednesday, March 10, 2032 at 6:00 PM");
    const first = invitation(scheduled);
    expect(first).toMatchObject({
      partMethod: "REQUEST",
      method: "REQUEST",
      uid: `appointment-${booked.id}@portal.test`,
      sequence: 0,
      tzid: "America/Los_Angeles",
      endTzid: "America/Los_Angeles",
      timezones: ["America/Los_Angeles"],
      status: "TENTATIVE",
      summary: "ESRT consultation (Zoom meeting)",
      organizer: `mailto:${TEST_TEAM_ADDRESS}`,
    });
    expect(first.start.toISOString()).toBe("2032-03-10T17:00:00.000Z");
    expect(first.end.toISOString()).toBe("2032-03-10T17:30:00.000Z");
    expect(first.attendees).toEqual([`mailto:${client.email.toLowerCase()}`]);

    await confirmAppointment({ db, adminId: admin.id, appointmentId: booked.id, now: NOW });
    const confirmed = (await mailsTo(client.email, 2))[1];
    expect(confirmed?.subject).toBe("Confirmed: your consultation on Wednesday, March 10, 2032");
    expect(invitation(confirmed)).toMatchObject({
      method: "REQUEST",
      uid: first.uid,
      sequence: 1,
      status: "CONFIRMED",
    });

    // into the daylight-time week: same wall-clock hour, one hour earlier in UTC
    await moveAppointment(admin.id, booked.id, pacific("2032-03-17", "09:00"));
    const moved = (await mailsTo(client.email, 3))[2];
    expect(moved?.subject).toBe("Rescheduled: your consultation is now on Wednesday, March 17, 2032");
    expect(moved?.text).toContain("planned for Wednesday, March 10, 2032 at 9:00 AM has moved");
    expect(moved?.text).toContain("When: Wednesday, March 17, 2032 at 9:00 AM (Pacific time, PDT)");
    expect(moved?.text).toContain("Your time: Wednesday, March 17, 2032 at 5:00 PM (Europe/Paris)");
    const third = invitation(moved);
    expect(third).toMatchObject({ method: "REQUEST", uid: first.uid, sequence: 2, status: "CONFIRMED" });
    expect(third.start.toISOString()).toBe("2032-03-17T16:00:00.000Z");

    await adminCancelAppointment({
      db,
      adminId: admin.id,
      appointmentId: booked.id,
      reason: "Our advisor is unavailable that day",
      now: NOW,
    });
    const cancelled = (await mailsTo(client.email, 4))[3];
    expect(cancelled?.subject).toBe("Cancelled: your consultation on Wednesday, March 17, 2032");
    expect(cancelled?.text).toContain("Reason: Our advisor is unavailable that day");
    expect(invitation(cancelled)).toMatchObject({
      partMethod: "CANCEL",
      method: "CANCEL",
      uid: first.uid,
      sequence: 3,
      status: "CANCELLED",
    });
  });

  it("tells the team of each new booking, and the client's own cancellation gives no reason line", async () => {
    const prospect = await createUser(db, { userType: "prospect", firstName: "Alan", lastName: "Turing" });
    const booked = await bookAs(prospect.id, "phone", pacific("2032-03-11", "14:30"), "America/Los_Angeles");
    await waitFor(
      () => smtp.to(TEST_TEAM_ADDRESS).some((m) => m.subject.includes("Alan Turing")),
      "the team's notice",
    );
    const notice = smtp.to(TEST_TEAM_ADDRESS).find((m) => m.subject.includes("Alan Turing"));
    expect(notice?.subject).toBe("New appointment: Alan Turing on Thursday, March 11, 2032 at 2:30 PM");
    expect(notice?.text).toContain(`Alan Turing (${prospect.email}) booked a consultation.`);
    expect(notice?.text).toContain(`${TEST_PUBLIC_URL}/admin/appointments`);
    expect(notice?.attachments).toEqual([]);

    const [scheduled] = await mailsTo(prospect.email, 1);
    // the client is in Pacific time: no second time
    expect(scheduled?.text).toContain("When: Thursday, March 11, 2032 at 2:30 PM (Pacific time, PST)");
    expect(scheduled?.text).not.toContain("Your time:");

    // the booking's event delivered again changes nothing for the client or the team
    await redeliver("appointment.scheduled", booked.id);
    await settle(700);
    expect(smtp.to(prospect.email)).toHaveLength(1);
    expect(smtp.to(TEST_TEAM_ADDRESS).filter((m) => m.subject.includes("Alan Turing"))).toHaveLength(1);

    await cancelMyAppointment({ db, userId: prospect.id, appointmentId: booked.id, now: NOW });
    const cancelled = (await mailsTo(prospect.email, 2))[1];
    expect(cancelled?.text).not.toContain("Reason:");
    expect(invitation(cancelled)).toMatchObject({ method: "CANCEL", sequence: 1 });
  });

  it("sends the reminder once, with the invitation, however many sweeps run", async () => {
    const client = await createUser(db, { userType: "client" });
    const booked = await bookAs(client.id, "teams", pacific("2032-03-12", "10:00"));
    await mailsTo(client.email, 1);
    // the day before, four sweeps at once (as four processes would)
    const dayBefore = pacific("2032-03-11", "10:30");
    const claimed = await Promise.all([1, 2, 3, 4].map(() => claimDueReminders({ db, now: dayBefore })));
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(1);
    const reminder = (await mailsTo(client.email, 2))[1];
    expect(reminder?.subject).toBe("Reminder: your consultation tomorrow at 10:00 AM");
    expect(reminder?.text).toContain("When: Friday, March 12, 2032 at 10:00 AM (Pacific time, PST)");
    expect(invitation(reminder)).toMatchObject({
      method: "REQUEST",
      uid: `appointment-${booked.id}@portal.test`,
      sequence: 0,
    });
    expect(await claimDueReminders({ db, now: dayBefore })).toBe(0);
    await redeliver("appointment.reminder_due", booked.id);
    await settle(700);
    expect(smtp.to(client.email)).toHaveLength(2);
  });

  it("reminds of the new time after a reschedule into the last 24 hours, and never of a far or cancelled one", async () => {
    const admin = await createAdmin(db);
    const client = await createUser(db, { userType: "client" });
    const other = await createUser(db, { userType: "client" });
    const moved = await bookAs(client.id, "phone", pacific("2032-03-19", "11:00"), "Asia/Tokyo");
    const cancelled = await bookAs(other.id, "zoom", pacific("2032-03-10", "15:00"));
    await adminCancelAppointment({
      db,
      adminId: admin.id,
      appointmentId: cancelled.id,
      reason: "Closed",
      now: NOW,
    });
    await mailsTo(client.email, 1);
    await mailsTo(other.email, 2);
    const tuesday = pacific("2032-03-09", "16:00");
    // far off (the 19th) and cancelled (the 10th): no reminder
    expect(await claimDueReminders({ db, now: tuesday })).toBe(0);
    await moveAppointment(admin.id, moved.id, pacific("2032-03-10", "10:00"), tuesday);
    await mailsTo(client.email, 2);
    expect(await claimDueReminders({ db, now: tuesday })).toBe(1);
    const reminder = (await mailsTo(client.email, 3))[2];
    expect(reminder?.subject).toBe("Reminder: your consultation tomorrow at 10:00 AM");
    expect(reminder?.text).toContain("Your time: Thursday, March 11, 2032 at 3:00 AM (Asia/Tokyo)");
    const sent = invitation(reminder);
    expect(sent).toMatchObject({
      method: "REQUEST",
      uid: `appointment-${moved.id}@portal.test`,
      sequence: 1,
      tzid: "America/Los_Angeles",
    });
    expect(sent.start.toISOString()).toBe(pacific("2032-03-10", "10:00").toISOString());
    await settle(500);
    expect(smtp.to(client.email)).toHaveLength(3);
    expect(smtp.to(other.email)).toHaveLength(2);
  });
});

describe("the times an appointment email shows", () => {
  const context: MailContext = {
    productName: "ESRT",
    logoUrl: "/logo.svg",
    supportPhone: "",
    consultationEmail: "",
    teamAddress: TEST_TEAM_ADDRESS,
    publicUrl: TEST_PUBLIC_URL,
  };
  const at = (timeZone: string | null) =>
    appointmentVariables(
      {
        appointmentId: 1,
        userId: 1,
        email: "ada@example.test",
        firstName: "Ada",
        lastName: "Lovelace",
        appointmentType: "teams",
        // 4:30 PM Pacific daylight time on Friday 16 July 2032
        dateTime: "2032-07-16T23:30:00.000Z",
        timeZone,
        notes: null,
        sequence: 0,
      },
      context,
    );

  it("always gives Pacific time, and the client's own only when it is known, valid and reads differently", () => {
    expect(at(null)).toMatchObject({
      appointmentDate: "Friday, July 16, 2032",
      appointmentTime: "4:30 PM",
      timeZone: "Pacific time, PDT",
      localTime: null,
      appointmentType: "Microsoft Teams meeting",
    });
    // across the date line: the client's day is already Saturday
    expect(at("Australia/Sydney").localTime).toBe("Saturday, July 17, 2032 at 9:30 AM (Australia/Sydney)");
    expect(at("America/New_York").localTime).toBe("Friday, July 16, 2032 at 7:30 PM (America/New_York)");
    expect(at("Not/AZone").localTime).toBeNull();
    expect(at("America/Los_Angeles").localTime).toBeNull();
    // another name for the same clock says nothing new
    expect(at("America/Tijuana").localTime).toBeNull();
  });
});
