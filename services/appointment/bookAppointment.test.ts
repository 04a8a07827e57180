import { APPOINTMENT_MESSAGES, BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { outboxEventsOf } from "@services/shared/events/testing/world";
import { testDb } from "@services/shared/testing/db";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import { bookAppointment } from "./bookAppointment";
import { CLIENT_LIMIT_MESSAGE, PROSPECT_LIMIT_MESSAGE, SLOT_TAKEN_MESSAGE } from "./errors";
import { getAvailability } from "./getAvailability";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

/** The UTC instant of a wall-clock time in business time. */
function pacific(date: string, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toJSDate();
}

// Monday 2 June 2031, 05:00 in Los Angeles: far from the slots other test files book.
const NOW = new Date("2031-06-02T12:00:00Z");

const outboxOf = (appointmentId: number) => outboxEventsOf(db, "appointmentId", appointmentId);

function book(actor: { id: number; manages?: boolean }, input: Record<string, unknown>, now = NOW) {
  return bookAppointment({ db, actor: { id: actor.id, manages: actor.manages ?? false }, input, now });
}

describe("bookAppointment rules", () => {
  const valid = { appointmentType: "phone", dateTime: "2031-06-03T16:00:00Z", notes: "Net terms" };
  const cases: [string, Record<string, unknown>, string][] = [
    ["in the past", { dateTime: "2031-06-02T11:00:00Z" }, APPOINTMENT_MESSAGES.inFuture],
    ["more than 60 days ahead", { dateTime: "2031-08-04T16:00:00Z" }, APPOINTMENT_MESSAGES.withinWindow],
    ["on a Saturday", { dateTime: "2031-06-07T16:00:00Z" }, APPOINTMENT_MESSAGES.weekday],
    [
      "at 08:30",
      { dateTime: pacific("2031-06-03", "08:30").toISOString() },
      APPOINTMENT_MESSAGES.businessHours,
    ],
    [
      "at 17:00",
      { dateTime: pacific("2031-06-03", "17:00").toISOString() },
      APPOINTMENT_MESSAGES.businessHours,
    ],
    ["at 09:15", { dateTime: pacific("2031-06-03", "09:15").toISOString() }, APPOINTMENT_MESSAGES.slot],
    ["with 251 characters of notes", { notes: "x".repeat(251) }, APPOINTMENT_MESSAGES.notesTooLong],
    ["of an unknown type", { appointmentType: "skype" }, APPOINTMENT_MESSAGES.type],
    ["without a date and time", { dateTime: undefined }, APPOINTMENT_MESSAGES.dateTime],
  ];
  it.each(cases)("refuses a booking %s with the rule's message", async (_name, change, message) => {
    const user = await createUser(db, { userType: "client" });
    await expect(book(user, { ...valid, ...change })).rejects.toMatchObject({
      code: "INVALID_APPOINTMENT",
      message,
    });
    expect(await db.prisma.appointment.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses booking for another user without manage:appointments", async () => {
    const [user, other] = [await createUser(db, { userType: "client" }), await createUser(db)];
    await expect(book(user, { ...valid, userId: other.id })).rejects.toMatchObject({ code: "NOT_ALLOWED" });
  });

  it("books a pending appointment for the actor whatever status was sent, and emits appointment.scheduled", async () => {
    const user = await createUser(db, { userType: "client", firstName: "Ada" });
    const dateTime = pacific("2031-06-03", "09:00");
    const booked = await bookAppointment({
      db,
      actor: { id: user.id, manages: false },
      input: { ...valid, dateTime: dateTime.toISOString(), status: "confirmed", notes: " 250 ok " },
      timeZone: "Europe/Paris",
      now: NOW,
    });
    expect(booked).toMatchObject({
      userId: user.id,
      status: "pending",
      appointmentType: "phone",
      dateTime: "2031-06-03T16:00:00.000Z",
      notes: "250 ok",
      sequence: 0,
      timeZone: "Europe/Paris",
    });
    expect(await outboxOf(booked.id)).toEqual([
      {
        type: "appointment.scheduled",
        payload: expect.objectContaining({
          email: user.email,
          firstName: "Ada",
          dateTime: "2031-06-03T16:00:00.000Z",
          sequence: 0,
          timeZone: "Europe/Paris",
          appointmentType: "phone",
          notes: "250 ok",
        }),
      },
    ]);
  });

  it("lets an admin book for someone else", async () => {
    const [admin, client] = [await createAdmin(db), await createUser(db, { userType: "client" })];
    const booked = await book(
      { id: admin.id, manages: true },
      { ...valid, userId: client.id, dateTime: pacific("2031-06-03", "09:30").toISOString() },
    );
    expect(booked.userId).toBe(client.id);
  });
});

describe("bookAppointment limits and double booking", () => {
  it("gives exactly one of 10 parallel bookings of one slot; the others hear the slot was taken", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser(db, { userType: "client" })));
    const dateTime = pacific("2031-06-04", "11:00").toISOString();
    const results = await Promise.allSettled(
      users.map((u) => book(u, { appointmentType: "zoom", dateTime })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const err of lost) expect(err).toMatchObject({ code: "SLOT_TAKEN", message: SLOT_TAKEN_MESSAGE });
  });

  it("holds a slot to its capacity: with two seats, exactly two of 6 parallel bookings succeed", async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(db, { userType: "client" })));
    const dateTime = pacific("2031-06-04", "14:00").toISOString();
    const day = async () =>
      (await getAvailability({ db, from: "2031-06-04", capacity: 2, now: NOW }))[0]?.slots.find(
        (s) => s.dateTime === new Date(dateTime).toISOString(),
      )?.taken;
    expect(await day()).toBe(false);
    const results = await Promise.allSettled(
      users.map((u) =>
        bookAppointment({
          db,
          actor: { id: u.id, manages: false },
          input: { appointmentType: "zoom", dateTime },
          capacity: 2,
          now: NOW,
        }),
      ),
    );
    const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(won).toHaveLength(2);
    for (const err of lost) expect(err).toMatchObject({ code: "SLOT_TAKEN", message: SLOT_TAKEN_MESSAGE });
    const seats = await db.prisma.appointment.findMany({
      where: { id: { in: won.map((w) => w.id) } },
      select: { seat: true },
      orderBy: { seat: "asc" },
    });
    expect(seats.map((s) => s.seat)).toEqual([1, 2]);
    expect(await day()).toBe(true);
    // the same slot is full for a capacity of one as well
    expect(
      (await getAvailability({ db, from: "2031-06-04", capacity: 1, now: NOW }))[0]?.slots.find(
        (s) => s.dateTime === new Date(dateTime).toISOString(),
      )?.taken,
    ).toBe(true);
  });

  it("holds a prospect to one upcoming appointment", async () => {
    const prospect = await createUser(db, { userType: "prospect" });
    await book(prospect, {
      appointmentType: "phone",
      dateTime: pacific("2031-06-05", "09:00").toISOString(),
    });
    await expect(
      book(prospect, { appointmentType: "phone", dateTime: pacific("2031-06-05", "09:30").toISOString() }),
    ).rejects.toMatchObject({ code: "LIMIT_REACHED", message: PROSPECT_LIMIT_MESSAGE });
  });

  it("holds a client to three upcoming appointments", async () => {
    const client = await createUser(db, { userType: "client" });
    for (const time of ["10:00", "10:30", "11:00"]) {
      await book(client, { appointmentType: "teams", dateTime: pacific("2031-06-05", time).toISOString() });
    }
    await expect(
      book(client, { appointmentType: "teams", dateTime: pacific("2031-06-05", "11:30").toISOString() }),
    ).rejects.toMatchObject({ code: "LIMIT_REACHED", message: CLIENT_LIMIT_MESSAGE });
  });
});

describe("daylight saving", () => {
  it("maps 09:00 to 16:00Z before and 17:00Z after the November change, in availability and booking", async () => {
    const now = new Date("2026-10-28T12:00:00Z");
    const days = await getAvailability({ db, from: "2026-10-30", to: "2026-11-02", now });
    expect(days.map((d) => [d.date, d.slots.length])).toEqual([
      ["2026-10-30", 16],
      ["2026-10-31", 0],
      ["2026-11-01", 0],
      ["2026-11-02", 16],
    ]);
    expect(days[0]?.slots[0]).toMatchObject({
      dateTime: "2026-10-30T16:00:00.000Z",
      label: "9:00 AM",
      taken: false,
    });
    expect(days[3]?.slots[0]).toMatchObject({ dateTime: "2026-11-02T17:00:00.000Z", time: "09:00" });
    expect(days[3]?.slots[15]).toMatchObject({ dateTime: "2026-11-03T00:30:00.000Z", label: "4:30 PM" });

    const client = await createUser(db, { userType: "client" });
    await expect(
      book(client, { appointmentType: "phone", dateTime: "2026-11-02T16:00:00Z" }, now),
    ).rejects.toMatchObject({ message: APPOINTMENT_MESSAGES.businessHours });
    await book(client, { appointmentType: "phone", dateTime: "2026-11-02T17:00:00Z" }, now);
    const after = await getAvailability({ db, from: "2026-11-02", now });
    expect(after[0]?.slots[0]).toMatchObject({ dateTime: "2026-11-02T17:00:00.000Z", taken: true });
    expect(after[0]?.slots[1]?.taken).toBe(false);
  });

  it("maps 09:00 to 17:00Z before and 16:00Z after the March change", async () => {
    const now = new Date("2027-03-10T12:00:00Z");
    const days = await getAvailability({ db, from: "2027-03-12", to: "2027-03-15", now });
    expect(days[0]?.slots[0]?.dateTime).toBe("2027-03-12T17:00:00.000Z");
    expect(days[3]?.slots[0]?.dateTime).toBe("2027-03-15T16:00:00.000Z");
    const client = await createUser(db, { userType: "client" });
    await expect(
      book(client, { appointmentType: "zoom", dateTime: "2027-03-15T15:30:00Z" }, now),
    ).rejects.toMatchObject({ message: APPOINTMENT_MESSAGES.businessHours });
    const booked = await book(client, { appointmentType: "zoom", dateTime: "2027-03-15T16:00:00Z" }, now);
    expect(booked.dateTime).toBe("2027-03-15T16:00:00.000Z");
  });

  it("offers no slots in the past, beyond 60 days, and refuses malformed ranges", async () => {
    const days = await getAvailability({ db, from: "2031-05-30", to: "2031-08-05", now: NOW }).catch(
      (e) => e,
    );
    expect(days).toMatchObject({ code: "INVALID_APPOINTMENT" });
    const window = await getAvailability({ db, from: "2031-06-02", to: "2031-06-02", now: NOW });
    expect(window[0]?.slots[0]?.time).toBe("09:00");
    const past = await getAvailability({ db, from: "2031-05-30", now: NOW });
    expect(past[0]?.slots).toEqual([]);
    const beyond = await getAvailability({ db, from: "2031-08-04", now: NOW });
    expect(beyond[0]?.slots).toEqual([]);
    await expect(getAvailability({ db, from: "June 3", now: NOW })).rejects.toMatchObject({
      code: "INVALID_APPOINTMENT",
    });
  });
});
