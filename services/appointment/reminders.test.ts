import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { workloadFor } from "@services/registry";
import { config, setConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { waitFor } from "@services/shared/events/testing/bus";
import { eventsDatabase } from "@services/shared/events/testing/world";
import { testDb } from "@services/shared/testing/db";
import { createAdmin, createAppointment, createUser } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import { Client } from "pg";
import { adminCancelAppointment } from "./adminCancelAppointment";
import { bookAppointment } from "./bookAppointment";
import { claimDueReminders } from "./reminders";
import { rescheduleAppointment } from "./rescheduleAppointment";
import { startWorkers } from "./worker";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

// Weeks of May 2034: far from the slots other test files book.
const MONDAY = new Date("2034-05-01T15:00:00Z"); // 8:00 AM Pacific

function pacific(date: string, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toJSDate();
}

async function remindersOf(appointmentId: number, on: Db = db): Promise<number> {
  const rows = await on.prisma.$queryRaw<{ n: bigint }[]>`
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
    const moveTo = (dateTime: Date, now: Date) =>
      rescheduleAppointment({
        db,
        adminId: admin.id,
        appointmentId: appointment.id,
        dateTime: dateTime.toISOString(),
        now,
      });
    await claimDueReminders({ db, now: pacific("2034-05-08", "16:00") });
    expect(await remindersOf(appointment.id)).toBe(1);
    // moved a week on: a new reminder the day before the new time
    await moveTo(pacific("2034-05-16", "15:00"), pacific("2034-05-08", "16:30"));
    await claimDueReminders({ db, now: pacific("2034-05-10", "09:00") });
    expect(await remindersOf(appointment.id)).toBe(1);
    await claimDueReminders({ db, now: pacific("2034-05-15", "15:00") });
    expect(await remindersOf(appointment.id)).toBe(2);
    // moved to the next morning, inside the window: the next sweep reminds of the new time
    await moveTo(pacific("2034-05-16", "09:00"), pacific("2034-05-15", "15:30"));
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

// Two sweeps in two processes, interleaved on purpose: a database of the file's own (the sweeps
// below claim whatever is due, and a table lock must not stall other test files), two connection
// pools as two processes would have, and a third connection that holds the outbox table so that
// the first sweep stops inside its transaction, after its claim and before its commit.
describe("appointment reminders across processes", () => {
  let world: { db: Db; url: string; drop(): Promise<void> };
  let other: Db;
  let locker: Client;

  beforeAll(async () => {
    world = await eventsDatabase();
    other = await connectPostgres(world.url);
    locker = new Client({ connectionString: world.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await other.close();
    await world.drop();
  });

  /** Holds inserts into outbox_events until the returned function is called; answers the sweep's pid. */
  async function holdOutbox(): Promise<{ release(): Promise<void>; waiter(): Promise<number> }> {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE outbox_events IN SHARE ROW EXCLUSIVE MODE");
    let pid = 0;
    return {
      async release() {
        await locker.query("COMMIT");
      },
      async waiter() {
        await waitFor(async () => {
          const { rows } = await locker.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          pid = rows[0]?.pid ?? 0;
          return pid !== 0;
        }, "a sweep waiting for the outbox");
        return pid;
      },
    };
  }

  it("a second process's sweep skips the reminder the first is claiming, and none claims it again", async () => {
    const now = new Date("2034-06-05T16:00:00Z");
    const appointment = await createAppointment(world.db, { dateTime: new Date("2034-06-06T15:00:00Z") });
    const hold = await holdOutbox();
    const first = claimDueReminders({ db: world.db, now });
    await hold.waiter();
    // the first sweep has claimed the row and waits to write its event: the second neither waits
    // for it nor claims the row too
    expect(await claimDueReminders({ db: other, now })).toBe(0);
    await hold.release();
    expect(await first).toBe(1);
    expect(await claimDueReminders({ db: other, now })).toBe(0);
    expect(await claimDueReminders({ db: world.db, now })).toBe(0);
    expect(await remindersOf(appointment.id, world.db)).toBe(1);
    const row = await other.prisma.appointment.findUniqueOrThrow({ where: { id: appointment.id } });
    expect(row.reminderSentAt?.toISOString()).toBe(now.toISOString());
  });

  it("a sweep that fails before its commit leaves the reminder for the next one", async () => {
    const now = new Date("2034-06-12T16:00:00Z");
    const appointment = await createAppointment(world.db, { dateTime: new Date("2034-06-13T15:00:00Z") });
    const hold = await holdOutbox();
    const failing = claimDueReminders({ db: world.db, now });
    const failed = expect(failing).rejects.toThrow();
    await locker.query("SELECT pg_cancel_backend($1)", [await hold.waiter()]);
    await failed;
    await hold.release();
    expect(await remindersOf(appointment.id, world.db)).toBe(0);
    const row = await other.prisma.appointment.findUniqueOrThrow({ where: { id: appointment.id } });
    expect(row.reminderSentAt).toBeNull();
    expect(await claimDueReminders({ db: other, now })).toBe(1);
    expect(await remindersOf(appointment.id, world.db)).toBe(1);
  });

  it("runs in every process that runs the appointment worker, at start and then every interval", async () => {
    expect(workloadFor("appointment").workers).toEqual([startWorkers]);
    expect(workloadFor("all").workers).toContain(startWorkers);
    const original = config();
    setConfig({ ...original, APPOINTMENT_REMINDER_INTERVAL_MS: 1000 });
    // the worker sweeps at the real time: appointments a few hours from now
    const hour = 60 * 60 * 1000;
    const soon = await createAppointment(world.db, { dateTime: new Date(Date.now() + 3 * hour) });
    const worker = await startWorkers({ db: world.db });
    try {
      await waitFor(async () => (await remindersOf(soon.id, world.db)) === 1, "the sweep at start");
      const later = await createAppointment(world.db, { dateTime: new Date(Date.now() + 5 * hour) });
      await waitFor(async () => (await remindersOf(later.id, world.db)) === 1, "the next sweep", 5000);
      const far = await createAppointment(world.db, { dateTime: new Date(Date.now() + 25 * hour) });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await remindersOf(far.id, world.db)).toBe(0);
      expect(await remindersOf(soon.id, world.db)).toBe(1);
    } finally {
      await worker.stop();
      setConfig(original);
    }
  });
});
