import { clientAndAdminCookies, identityAppFixture } from "@gateway/testing/fixtures";
import { APPOINTMENT_MESSAGES, TIME_ZONE_MESSAGE } from "@schema/validation/appointment";
import { UNSAFE_TEXT_MESSAGE } from "@schema/validation/primitives";
import { uniqueSuffix } from "@services/shared/testing/factories";
import request from "supertest";

// Bad input on the REST shims (OWASP ASVS V2.2, V16.5): a clear 4xx with the shared schemas'
// message, never a 500, and never the database's own words.

let client: string;
let admin: string;

const h = identityAppFixture();
beforeAll(async () => {
  ({ client, admin } = await clientAndAdminCookies(h));
});

/** Asserts a client error that tells nothing of the server's insides. */
function expectClientError(res: request.Response, status: number): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  expect(res.text).not.toMatch(/prisma|invalid byte sequence|22021|22P02|22003|\.ts:|node_modules|\s{4}at /i);
}

describe("NUL and unpaired surrogates in text", () => {
  it("answers 400 for a NUL in the login", async () => {
    const res = await request(h.app).post("/api/login").send({ login: "a\u0000", password: "x" });
    expectClientError(res, 400);
    expect(res.body.message).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it.each([["firstName"], ["lastName"], ["companyName"], ["notes"], ["username"], ["password"]])(
    "answers 400 for a NUL in registration's %s",
    async (field) => {
      const suffix = uniqueSuffix();
      const valid = {
        username: `nul_${suffix}`,
        email: `nul_${suffix}@example.test`,
        password: "Pass-w0rd-long",
        firstName: "Nul",
        lastName: "Tester",
        companyName: "Acme",
        notes: "Hi",
      };
      const res = await request(h.app)
        .post("/api/register")
        .send({ ...valid, [field]: `${valid[field as keyof typeof valid]}\u0000` });
      expectClientError(res, 400);
      expect(res.body.errors[field]).toContain(UNSAFE_TEXT_MESSAGE);
    },
  );

  it.each([
    ["a NUL", "a\u0000b"],
    ["a lone surrogate", "caf\ud800e"],
  ])("answers 400 for %s in /api/user/notes, with the reason in error", async (_name, notes) => {
    const res = await request(h.app).post("/api/user/notes").set("Cookie", client).send({ notes });
    expectClientError(res, 400);
    expect(res.body.error).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it("answers 400 for a NUL unique id", async () => {
    const res = await request(h.app).get("/api/users/by-uniqueid/%00").set("Cookie", admin);
    expectClientError(res, 400);
    expect(res.body.message).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it("answers 400 for a NUL in a security question and in the reason of a cancellation", async () => {
    const questions = [
      { question: "First pet?\u0000", answer: "Rex" },
      { question: "City of birth?", answer: "Springfield" },
      { question: "Favourite colour?", answer: "Blue" },
    ];
    const me = await request(h.app).get("/api/user").set("Cookie", client);
    const sq = await request(h.app)
      .post("/api/security-questions")
      .set("Cookie", client)
      .send({ userId: me.body.id, questions });
    expectClientError(sq, 400);
    const cancel = await request(h.app)
      .post("/api/admin/appointments/1/cancel")
      .set("Cookie", admin)
      .send({ reason: "ill\u0000" });
    expectClientError(cancel, 400);
  });
});

describe("ids beyond the database's integer", () => {
  it.each([
    ["POST", "/api/appointments/2147483648/cancel", "client"],
    ["POST", "/api/admin/appointments/2147483648/confirm", "admin"],
    ["POST", "/api/admin/appointments/2147483648/cancel", "admin"],
    ["POST", "/api/admin/appointments/99999999999999999999/reschedule", "admin"],
  ])("%s %s answers 404 Appointment not found", async (_method, path, who) => {
    const res = await request(h.app)
      .post(path)
      .set("Cookie", who === "admin" ? admin : client)
      .send({ reason: "Because", dateTime: "2030-01-07T17:00:00Z" });
    expectClientError(res, 404);
    expect(res.body.message).toBe("Appointment not found");
  });

  it.each([
    ["/api/security-questions/2147483648"],
    ["/api/security-questions/0"],
    ["/api/security-questions/1e3"],
  ])("GET %s answers 400", async (path) => {
    const res = await request(h.app).get(path).set("Cookie", admin);
    expectClientError(res, 400);
    expect(res.body.message).toBe("userId must be a user's id");
  });

  it("answers 400 for ?userId=2147483648 on the admin list, and for an id in a body", async () => {
    const list = await request(h.app).get("/api/admin/appointments?userId=2147483648").set("Cookie", admin);
    expectClientError(list, 400);
    expect(list.body.message).toBe("userId must be a user's id");
    const answers = await request(h.app)
      .post("/api/verify-security-answers")
      .send({ userId: 2147483648, answers: [{ questionIndex: 0, answer: "Rex" }] });
    expectClientError(answers, 400);
  });
});

describe("bookings that do not parse", () => {
  it.each([["next tuesday"], [""], ["2026-12-01 17:00"], [17], [null], [{ iso: "2030-01-07T17:00:00Z" }]])(
    "answers dateTime %j with 400 'Please select a date and time for your appointment'",
    async (dateTime) => {
      const res = await request(h.app)
        .post("/api/appointments")
        .set("Cookie", client)
        .send({ appointmentType: "phone", dateTime });
      expectClientError(res, 400);
      expect(res.body.message).toBe(APPOINTMENT_MESSAGES.dateTime);
    },
  );

  it.each([[{ toString: 1 }], [42], [["Europe/Paris"]]])("answers timeZone %j with 400", async (timeZone) => {
    const res = await request(h.app)
      .post("/api/appointments")
      .set("Cookie", client)
      .send({ appointmentType: "phone", dateTime: "2030-01-07T17:00:00Z", timeZone });
    expectClientError(res, 400);
    expect(res.body.message).toBe(TIME_ZONE_MESSAGE);
  });

  it("answers a malformed reschedule with the same message", async () => {
    const res = await request(h.app)
      .post("/api/admin/appointments/1/reschedule")
      .set("Cookie", admin)
      .send({ dateTime: "next tuesday" });
    expectClientError(res, 400);
    expect(res.body.message).toBe(APPOINTMENT_MESSAGES.dateTime);
  });
});
