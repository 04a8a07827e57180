import { DateTime } from "luxon";
import { BUSINESS_TIME_ZONE } from "../../schema/validation/appointment";
import type { Db } from "../shared/db";
import { testDb } from "../shared/testing/db";
import { createAdmin, createUser } from "../shared/testing/factories";
import { adminCancelAppointment } from "./adminCancelAppointment";
import { bookAppointment } from "./bookAppointment";
import { claimDueReminders } from "./reminders";
import { rescheduleAppointment } from "./rescheduleAppointment";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

// Weeks of May 2034: far from the slots other test files book.
const MONDAY = new Date("2034-05-01T15:00:00Z"); // 8:00 AM Pacific

function pacific(date: string, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toJSDate();
}

async function remindersOf(appointmentId: number): Promise<number> {
  const rows = await db.prisma.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM outbox_events
    WHERE type = 'appointment.reminder_due' AND (envelope->'payload'->>'appointmentId')::int = ${appointmentId}`;
  return Number(rows[0]?.n ?? 0);
}

async function book(date: string, time: string, now = MONDAY) {
  const user = await createUser(db, { userType: "client" });
  return bookAppointment({
    db,
    actor: { id: user.id, manages: false },
    input: { appointmentType: "phone", dateTime: pacific(date, time).toISOString() },
    now,
  });
}

describe("appointment reminders", () => {
  it("claims a reminder once 24 hours before, even with many sweeps at once", async () => {
    const appointment = await book("2034-05-03", "11:00");
    expect(await claimDueReminders({ db, now: pacific("2034-05-02", "10:59") })).toBe(0);
    const at = pacific("2034-05-02", "11:00");
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimDueReminders({ db, now: at })));
    expect(claims.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await claimDueReminders({ db, now: pacific("2034-05-03", "09:00") })).toBe(0);
    expect(await remindersOf(appointment.id)).toBe(1);
  });

  it("sends none for a cancelled appointment or one already past", async () => {
    const admin = await createAdmin(db);
    const cancelled = await book("2034-05-04", "13:00");
    await adminCancelAppointment({
      db,
      adminId: admin.id,
      appointmentId: cancelled.id,
      reason: "Closed",
      now: MONDAY,
    });
    const past = await book("2034-05-04", "13:30");
    await claimDueReminders({ db, now: pacific("2034-05-04", "14:00") });
    expect(await remindersOf(cancelled.id)).toBe(0);
    expect(await remindersOf(past.id)).toBe(0);
  });

  it("treats a booking made inside the 24 hours as its own reminder", async () => {
    const appointment = await book("2034-05-02", "09:00", pacific("2034-05-01", "15:00"));
    await claimDueReminders({ db, now: pacific("2034-05-01", "16:00") });
    expect(await remindersOf(appointment.id)).toBe(0);
  });

  it("reminds again after each reschedule, at once when the new time is inside the window", async () => {
    const admin = await createAdmin(db);
    const appointment = await book("2034-05-09", "15:00");
    await claimDueReminders({ db, now: pacific("2034-05-08", "16:00") });
    expect(await remindersOf(appointment.id)).toBe(1);
    // moved a week on: a new reminder the day before the new time
    await rescheduleAppointment({
      db,
      adminId: admin.id,
      appointmentId: appointment.id,
      dateTime: pacific("2034-05-16", "15:00").toISOString(),
      now: pacific("2034-05-08", "16:30"),
    });
    await claimDueReminders({ db, now: pacific("2034-05-10", "09:00") });
    expect(await remindersOf(appointment.id)).toBe(1);
    await claimDueReminders({ db, now: pacific("2034-05-15", "15:00") });
    expect(await remindersOf(appointment.id)).toBe(2);
    // moved to the next morning, inside the window: the next sweep reminds of the new time
    await rescheduleAppointment({
      db,
      adminId: admin.id,
      appointmentId: appointment.id,
      dateTime: pacific("2034-05-16", "09:00").toISOString(),
      now: pacific("2034-05-15", "15:30"),
    });
    const claims = await Promise.all(
      [1, 2, 3].map(() => claimDueReminders({ db, now: pacific("2034-05-15", "15:31") })),
    );
    expect(claims.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await remindersOf(appointment.id)).toBe(3);
    const [last] = await db.prisma.$queryRaw<{ dateTime: string; sequence: number }[]>`
      SELECT envelope->'payload'->>'dateTime' AS "dateTime", (envelope->'payload'->>'sequence')::int AS sequence
      FROM outbox_events
      WHERE type = 'appointment.reminder_due' AND (envelope->'payload'->>'appointmentId')::int = ${appointment.id}
      ORDER BY "createdAt" DESC, id DESC LIMIT 1`;
    expect(last).toEqual({ dateTime: pacific("2034-05-16", "09:00").toISOString(), sequence: 2 });
  });
});
