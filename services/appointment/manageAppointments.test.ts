import { APPOINTMENT_MESSAGES, BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { outboxEventsOf } from "@services/shared/events/testing/world";
import { countingModelCalls, testDb } from "@services/shared/testing/db";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import { adminCancelAppointment } from "./adminCancelAppointment";
import { adminListAppointments } from "./adminListAppointments";
import { bookAppointment } from "./bookAppointment";
import { cancelMyAppointment } from "./cancelMyAppointment";
import { confirmAppointment } from "./confirmAppointment";
import { SLOT_TAKEN_MESSAGE } from "./errors";
import { listMyAppointments } from "./listMyAppointments";
import { rescheduleAppointment } from "./rescheduleAppointment";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

// Monday 7 July 2031 in Los Angeles: far from the slots other test files book.
const NOW = new Date("2031-07-07T12:00:00Z");

function pacific(date: string, time: string): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toUTC().toISO() ?? "";
}

const outboxOf = (appointmentId: number) => outboxEventsOf(db, "appointmentId", appointmentId);

async function booked(date: string, time: string, userType: "client" | "prospect" = "client") {
  const user = await createUser(db, { userType });
  const appointment = await bookAppointment({
    db,
    actor: { id: user.id, manages: false },
    input: { appointmentType: "phone", dateTime: pacific(date, time) },
    now: NOW,
  });
  return { user, appointment };
}

describe("a user's own appointments", () => {
  it("lists only the user's upcoming appointments and refuses to cancel someone else's", async () => {
    const { user, appointment } = await booked("2031-07-08", "09:00");
    const other = await booked("2031-07-08", "09:30");
    expect((await listMyAppointments({ db, userId: user.id, now: NOW })).map((a) => a.id)).toEqual([
      appointment.id,
    ]);
    await expect(
      cancelMyAppointment({ db, userId: user.id, appointmentId: other.appointment.id, now: NOW }),
    ).rejects.toMatchObject({ code: "APPOINTMENT_NOT_FOUND" });
    expect(await outboxOf(other.appointment.id)).toHaveLength(1);
  });

  it("cancels the user's own upcoming appointment, raises the sequence and frees the slot", async () => {
    const { user, appointment } = await booked("2031-07-08", "10:00");
    const cancelled = await cancelMyAppointment({
      db,
      userId: user.id,
      appointmentId: appointment.id,
      now: NOW,
    });
    expect(cancelled).toMatchObject({ status: "cancelled", sequence: 1 });
    expect((await outboxOf(appointment.id))[1]).toMatchObject({
      type: "appointment.cancelled",
      payload: { sequence: 1, reason: null, cancelledBy: { userId: user.id, kind: "client" } },
    });
    await expect(
      cancelMyAppointment({ db, userId: user.id, appointmentId: appointment.id, now: NOW }),
    ).rejects.toMatchObject({ code: "NOT_CHANGEABLE" });
    expect(await listMyAppointments({ db, userId: user.id, now: NOW })).toEqual([]);
    const again = await booked("2031-07-08", "10:00");
    expect(again.appointment.status).toBe("pending");
  });
});

describe("administration", () => {
  it("confirms a pending appointment with appointment.confirmed", async () => {
    const admin = await createAdmin(db);
    const { appointment } = await booked("2031-07-09", "09:00");
    const confirmed = await confirmAppointment({
      db,
      adminId: admin.id,
      appointmentId: appointment.id,
      now: NOW,
    });
    expect(confirmed).toMatchObject({ status: "confirmed", sequence: 1 });
    expect((await outboxOf(appointment.id)).map((e) => e.type)).toEqual([
      "appointment.scheduled",
      "appointment.confirmed",
    ]);
    await expect(
      confirmAppointment({ db, adminId: admin.id, appointmentId: 999_999_999, now: NOW }),
    ).rejects.toMatchObject({ code: "APPOINTMENT_NOT_FOUND" });
  });

  it("cancels only with a reason, which the event carries", async () => {
    const admin = await createAdmin(db);
    const { appointment } = await booked("2031-07-09", "09:30");
    await expect(
      adminCancelAppointment({
        db,
        adminId: admin.id,
        appointmentId: appointment.id,
        reason: "  ",
        now: NOW,
      }),
    ).rejects.toMatchObject({ code: "INVALID_APPOINTMENT", message: APPOINTMENT_MESSAGES.reason });
    const cancelled = await adminCancelAppointment({
      db,
      adminId: admin.id,
      appointmentId: appointment.id,
      reason: "Consultant unavailable",
      now: NOW,
    });
    expect(cancelled).toMatchObject({
      status: "cancelled",
      cancelReason: "Consultant unavailable",
      sequence: 1,
    });
    expect((await outboxOf(appointment.id))[1]).toMatchObject({
      type: "appointment.cancelled",
      payload: { reason: "Consultant unavailable", cancelledBy: { userId: admin.id, kind: "admin" } },
    });
  });

  it("reschedules to a free valid slot only, raising the sequence each time", async () => {
    const admin = await createAdmin(db);
    const { appointment } = await booked("2031-07-10", "09:00");
    const taken = await booked("2031-07-10", "09:30");
    const move = (dateTime: string) =>
      rescheduleAppointment({ db, adminId: admin.id, appointmentId: appointment.id, dateTime, now: NOW });
    await expect(move(pacific("2031-07-12", "10:00"))).rejects.toMatchObject({
      message: APPOINTMENT_MESSAGES.weekday,
    });
    await expect(move(taken.appointment.dateTime)).rejects.toMatchObject({
      code: "SLOT_TAKEN",
      message: SLOT_TAKEN_MESSAGE,
    });
    const moved = await move(pacific("2031-07-10", "14:00"));
    expect(moved).toMatchObject({ dateTime: "2031-07-10T21:00:00.000Z", sequence: 1, status: "pending" });
    await confirmAppointment({ db, adminId: admin.id, appointmentId: appointment.id, now: NOW });
    const events = await outboxOf(appointment.id);
    expect(events.map((e) => [e.type, e.payload.sequence])).toEqual([
      ["appointment.scheduled", 0],
      ["appointment.rescheduled", 1],
      ["appointment.confirmed", 2],
    ]);
    expect(events[1]?.payload.previousDateTime).toBe("2031-07-10T16:00:00.000Z");
  });

  it("lists by date range, status and user, sorted", async () => {
    const admin = await createAdmin(db);
    const first = await booked("2031-07-11", "09:00");
    const second = await booked("2031-07-11", "10:00");
    await confirmAppointment({ db, adminId: admin.id, appointmentId: second.appointment.id, now: NOW });
    const day = await adminListAppointments({
      db,
      filters: { from: "2031-07-11", to: "2031-07-11", sort: "-dateTime" },
    });
    expect(day.map((a) => a.id)).toEqual([second.appointment.id, first.appointment.id]);
    const confirmed = await adminListAppointments({
      db,
      filters: { from: "2031-07-11", status: "confirmed" },
    });
    expect(confirmed.map((a) => a.id)).toEqual([second.appointment.id]);
    const mine = await adminListAppointments({ db, filters: { userId: String(first.user.id) } });
    expect(mine.map((a) => [a.id, a.client.email])).toEqual([[first.appointment.id, first.user.email]]);
    await expect(adminListAppointments({ db, filters: { status: "done" } })).rejects.toMatchObject({
      code: "INVALID_APPOINTMENT",
    });
  });
});

describe("the client of each appointment", () => {
  it("comes from one read of the user service per list, never one per appointment", async () => {
    const ann = await createUser(db, { userType: "client", firstName: "Ann", companyName: "Lee & Co" });
    const bob = await createUser(db, { userType: "client", firstName: "Bob" });
    const book = async (userId: number, time: string) =>
      bookAppointment({
        db,
        actor: { id: userId, manages: false },
        input: { appointmentType: "phone", dateTime: pacific("2031-07-14", time) },
        now: NOW,
      });
    const made = [await book(ann.id, "09:00"), await book(bob.id, "10:00"), await book(ann.id, "11:00")];
    const clientOf = (u: typeof ann) => ({
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      companyName: u.companyName,
    });
    expect(made.map((a) => a.client)).toEqual([clientOf(ann), clientOf(bob), clientOf(ann)]);
    const counting = countingModelCalls(db, "user");
    const listed = await adminListAppointments({
      db: counting.db,
      filters: { from: "2031-07-14", to: "2031-07-14" },
    });
    expect(listed.map((a) => [a.id, a.client])).toEqual([
      [made[0]?.id, clientOf(ann)],
      [made[1]?.id, clientOf(bob)],
      [made[2]?.id, clientOf(ann)],
    ]);
    expect(counting.calls).toEqual(["findMany"]);
    const mine = await listMyAppointments({ db: counting.db, userId: ann.id, now: NOW });
    expect(mine.map((a) => a.client)).toEqual([clientOf(ann), clientOf(ann)]);
    expect(counting.calls).toEqual(["findMany", "findMany"]);
  });
});

describe("rescheduling against the slot's capacity", () => {
  it("refuses a full slot and takes a free seat of one with room", async () => {
    const admin = await createAdmin(db);
    const first = await booked("2031-07-09", "10:00");
    const second = await booked("2031-07-09", "10:30");
    await expect(
      rescheduleAppointment({
        db,
        adminId: admin.id,
        appointmentId: second.appointment.id,
        dateTime: pacific("2031-07-09", "10:00"),
        capacity: 1,
        now: NOW,
      }),
    ).rejects.toMatchObject({ code: "SLOT_TAKEN", message: SLOT_TAKEN_MESSAGE });
    const moved = await rescheduleAppointment({
      db,
      adminId: admin.id,
      appointmentId: second.appointment.id,
      dateTime: pacific("2031-07-09", "10:00"),
      capacity: 2,
      now: NOW,
    });
    expect(moved.dateTime).toBe(first.appointment.dateTime);
    const seats = await db.prisma.appointment.findMany({
      where: { id: { in: [first.appointment.id, second.appointment.id] } },
      select: { seat: true },
      orderBy: { seat: "asc" },
    });
    expect(seats.map((s) => s.seat)).toEqual([1, 2]);
  });
});
