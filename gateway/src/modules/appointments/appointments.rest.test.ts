import { identityAppFixture, signInOk } from "@gateway/testing/fixtures";
import { APPOINTMENT_MESSAGES, BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import request from "supertest";

const h = identityAppFixture();

function signIn(username: string): Promise<string> {
  return signInOk(h.app, username);
}

interface Slot {
  dateTime: string;
  taken: boolean;
}

/** POST /api/appointments with `body` as the session `cookie`. */
function book(cookie: string, body: Record<string, unknown>) {
  return request(h.app).post("/api/appointments").set("Cookie", cookie).send(body);
}

/** A free slot of a weekday about 45 days ahead (real time: the REST routes use the clock). */
async function freeSlot(cookie: string, skip = 0): Promise<string> {
  let day = DateTime.now().setZone(BUSINESS_TIME_ZONE).plus({ days: 45 });
  while (day.weekday > 5) day = day.plus({ days: 1 });
  const res = await request(h.app)
    .get(`/api/appointments/availability?from=${day.toISODate()}`)
    .set("Cookie", cookie);
  expect(res.status).toBe(200);
  const slots: Slot[] = res.body[0].slots;
  const free = slots.filter((s) => !s.taken).reverse();
  return free[skip]?.dateTime ?? "";
}

describe("POST /api/appointments", () => {
  it("answers 401 when signed out", async () => {
    const res = await request(h.app).post("/api/appointments").send({ appointmentType: "phone" });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Unauthorized - Please log in");
  });

  it("answers 400 with the rule's message", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(user.username);
    const past = await book(cookie, { appointmentType: "phone", dateTime: "2020-01-06T17:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(APPOINTMENT_MESSAGES.inFuture);
    const notes = await book(cookie, {
      appointmentType: "phone",
      dateTime: await freeSlot(cookie),
      notes: "x".repeat(251),
    });
    expect(notes.status).toBe(400);
    expect(notes.body.message).toBe(APPOINTMENT_MESSAGES.notesTooLong);
  });

  it("answers 403 when booking for another user without manage:appointments", async () => {
    const [user, other] = [await createUser(h.db, { userType: "client" }), await createUser(h.db)];
    const cookie = await signIn(user.username);
    const res = await book(cookie, {
      userId: other.id,
      appointmentType: "phone",
      dateTime: await freeSlot(cookie),
    });
    expect(res.status).toBe(403);
  });

  it("books a pending appointment (201), lists it, marks the slot taken, and answers 409 for the slot and the limit", async () => {
    const prospect = await createUser(h.db, { userType: "prospect" });
    const cookie = await signIn(prospect.username);
    const dateTime = await freeSlot(cookie);
    const res = await book(cookie, {
      userId: prospect.id,
      appointmentType: "zoom",
      dateTime,
      status: "confirmed",
      notes: "Hello",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: prospect.id,
      status: "pending",
      appointmentType: "zoom",
      notes: "Hello",
    });
    expect(new Date(res.body.dateTime).toISOString()).toBe(new Date(dateTime).toISOString());

    const mine = await request(h.app).get("/api/appointments/mine").set("Cookie", cookie);
    expect(mine.body.map((a: { id: number }) => a.id)).toEqual([res.body.id]);

    const other = await createUser(h.db, { userType: "client" });
    const otherCookie = await signIn(other.username);
    const taken = await book(otherCookie, { appointmentType: "phone", dateTime });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("This time slot has just been taken. Please choose another time.");

    const second = await book(cookie, { appointmentType: "phone", dateTime: await freeSlot(cookie) });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/already have an upcoming appointment/);
  });
});

describe("cancelling and administration", () => {
  it("lets a user cancel only their own appointment", async () => {
    const [owner, stranger] = [
      await createUser(h.db, { userType: "client" }),
      await createUser(h.db, { userType: "client" }),
    ];
    const ownerCookie = await signIn(owner.username);
    const booked = await book(ownerCookie, {
      appointmentType: "teams",
      dateTime: await freeSlot(ownerCookie),
    });
    expect(booked.status).toBe(201);
    const strangerCookie = await signIn(stranger.username);
    const refused = await request(h.app)
      .post(`/api/appointments/${booked.body.id}/cancel`)
      .set("Cookie", strangerCookie)
      .send({});
    expect(refused.status).toBe(404);
    const cancelled = await request(h.app)
      .post(`/api/appointments/${booked.body.id}/cancel`)
      .set("Cookie", ownerCookie)
      .send({});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", sequence: 1 });
  });

  it("keeps the admin routes to manage:appointments, then confirms, reschedules and cancels", async () => {
    const client = await createUser(h.db, { userType: "client" });
    const clientCookie = await signIn(client.username);
    const booked = await book(clientCookie, {
      appointmentType: "phone",
      dateTime: await freeSlot(clientCookie),
    });
    expect(booked.status).toBe(201);
    const id: number = booked.body.id;

    expect((await request(h.app).get("/api/admin/appointments")).status).toBe(401);
    const forbidden = await request(h.app)
      .post(`/api/admin/appointments/${id}/confirm`)
      .set("Cookie", clientCookie);
    expect(forbidden.status).toBe(403);

    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const adminCookie = await signIn(admin.username);
    const list = await request(h.app)
      .get(`/api/admin/appointments?userId=${client.id}`)
      .set("Cookie", adminCookie);
    expect(list.status).toBe(200);
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([id]);

    const confirmed = await request(h.app)
      .post(`/api/admin/appointments/${id}/confirm`)
      .set("Cookie", adminCookie);
    expect(confirmed.body).toMatchObject({ status: "confirmed", sequence: 1 });

    const badMove = await request(h.app)
      .post(`/api/admin/appointments/${id}/reschedule`)
      .set("Cookie", adminCookie)
      .send({ dateTime: "2020-01-06T17:00:00Z" });
    expect(badMove.status).toBe(400);
    expect(badMove.body.message).toBe(APPOINTMENT_MESSAGES.inFuture);
    const moved = await request(h.app)
      .post(`/api/admin/appointments/${id}/reschedule`)
      .set("Cookie", adminCookie)
      .send({ dateTime: await freeSlot(adminCookie, 1) });
    expect(moved.status).toBe(200);
    expect(moved.body.sequence).toBe(2);

    const noReason = await request(h.app)
      .post(`/api/admin/appointments/${id}/cancel`)
      .set("Cookie", adminCookie)
      .send({});
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe(APPOINTMENT_MESSAGES.reason);
    const cancelled = await request(h.app)
      .post(`/api/admin/appointments/${id}/cancel`)
      .set("Cookie", adminCookie)
      .send({ reason: "Office closed" });
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelReason: "Office closed", sequence: 3 });
  });

  it("answers availability only to signed-in users", async () => {
    expect((await request(h.app).get("/api/appointments/availability?from=2031-06-02")).status).toBe(401);
  });
});
