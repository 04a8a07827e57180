import request from "supertest";
import { APPOINTMENT_MESSAGES } from "../../../../schema/validation/appointment";
import type { Db } from "../../../../services/shared/db";
import { testDb } from "../../../../services/shared/testing/db";
import { createUser, TEST_PASSWORD } from "../../../../services/shared/testing/factories";
import { type IdentityApp, identityApp, sessionCookieOf } from "../../rest/identityHarness";

let h: IdentityApp;
let db: Db;
beforeAll(async () => {
  db = await testDb();
  h = await identityApp();
});
afterAll(async () => {
  await h.close();
});

async function gql(query: string, cookie = "") {
  const res = await request(h.app).post("/graphql").set("Cookie", cookie).send({ query });
  return {
    data: res.body.data ?? null,
    errors: res.body.errors as { extensions?: { code?: string } }[] | undefined,
  };
}

async function signIn(username: string): Promise<string> {
  const res = await request(h.app).post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return sessionCookieOf(res) ?? "";
}

describe("appointment GraphQL fields", () => {
  it("refuses the signed out and users without manage:appointments", async () => {
    expect((await gql("{ myAppointments { id } }")).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const client = await createUser(db, { userType: "client" });
    const cookie = await signIn(client.username);
    const res = await gql("{ adminAppointments { id } }", cookie);
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("answers a rule's message as a typed error, and lists the user's appointments", async () => {
    const client = await createUser(db, { userType: "client" });
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
});
