import { identityAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { APPOINTMENT_MESSAGES, BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { createAppointment, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import request from "supertest";

const h = identityAppFixture();

async function gql(query: string, cookie = "") {
  const res = await request(h.app).post("/graphql").set("Cookie", cookie).send({ query });
  return {
    data: res.body.data ?? null,
    errors: res.body.errors as { message?: string; extensions?: { code?: string } }[] | undefined,
  };
}

async function signIn(username: string): Promise<string> {
  const res = await request(h.app).post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return sessionCookieOf(res) ?? "";
}

describe("appointment GraphQL fields", () => {
  it("refuses the signed out and users without manage:appointments", async () => {
    expect((await gql("{ myAppointments { id } }")).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const client = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(client.username);
    const res = await gql("{ adminAppointments { id } }", cookie);
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("answers a rule's message as a typed error, and lists the user's appointments", async () => {
    const client = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(client.username);
    const res = await gql(
      `mutation { bookAppointment(appointmentType: "phone", dateTime: "2020-01-06T17:00:00Z") {
        __typename ... on AppError { code message } } }`,
      cookie,
    );
    expect(res.data?.bookAppointment).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: APPOINTMENT_MESSAGES.inFuture,
    });
    expect((await gql("{ myAppointments { id } }", cookie)).data).toEqual({ myAppointments: [] });
  });

  it("answers availability for signed-in users only, with a slot booked elsewhere marked taken", async () => {
    expect(
      (await gql('{ appointmentAvailability(from: "2026-01-05") { date } }')).errors?.[0]?.extensions?.code,
    ).toBe("UNAUTHENTICATED");
    const client = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(client.username);
    const slot = (await createAppointment(h.db)).dateTime;
    const date = DateTime.fromJSDate(slot, { zone: BUSINESS_TIME_ZONE }).toISODate() ?? "";
    const res = await gql(
      `{ appointmentAvailability(from: "${date}") { date slots { dateTime time label taken } } }`,
      cookie,
    );
    const day = res.data?.appointmentAvailability?.[0];
    expect(day?.date).toBe(date);
    const taken = day?.slots.filter((s: { taken: boolean }) => s.taken) ?? [];
    expect(taken.map((s: { dateTime: string }) => s.dateTime)).toContain(slot.toISOString());
    expect(day?.slots.find((s: { dateTime: string }) => s.dateTime === slot.toISOString())?.label).toMatch(
      /^\d{1,2}:\d{2} (AM|PM)$/,
    );
    const bad = await gql('{ appointmentAvailability(from: "next monday") { date } }', cookie);
    expect(bad.errors?.[0]?.message).toBe("Dates must be written YYYY-MM-DD");
  });
});
