import { clientAndAdminCookies, identityAppFixture, signInOk } from "@gateway/testing/fixtures";
import { APPOINTMENT_MESSAGES } from "@schema/validation/appointment";
import { UNSAFE_TEXT_MESSAGE } from "@schema/validation/primitives";
import { connectPostgres } from "@services/shared/db";
import { scratchDatabase } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import request from "supertest";
import { createApp } from "./app";
import { fakeWebDist, redisSessionStore, testConfig } from "./testing/appHarness";

// Bad input on GraphQL (OWASP ASVS V2.2, V16.5): the shared schemas' messages as typed errors or
// client error codes, never INTERNAL_SERVER_ERROR; nothing internal in any mode; the REST
// same-origin rule for mutations.

let client: string;
let admin: string;

const h = identityAppFixture();
beforeAll(async () => {
  ({ client, admin } = await clientAndAdminCookies(h));
});

function signIn(username: string): Promise<string> {
  return signInOk(h.app, username);
}

interface GqlError {
  message: string;
  path?: string[];
  extensions?: { code?: string; requestId?: string };
}

async function gql(body: object, cookie = "", headers: Record<string, string> = {}) {
  const res = await request(h.app).post("/graphql").set("Cookie", cookie).set(headers).send(body);
  return {
    status: res.status,
    text: res.text,
    data: res.body.data ?? null,
    errors: (res.body.errors ?? []) as GqlError[],
  };
}

const INTERNAL_LEAK =
  /prisma|invalid byte sequence|22021|22P02|relation "|\.ts:|node_modules|\/work\/|\s{4}at /i;

describe("malformed bookings", () => {
  it.each([["next tuesday"], [""], ["2026-12-01 17:00"]])(
    "answers dateTime %j with 'Please select a date and time for your appointment'",
    async (dateTime) => {
      const res = await gql(
        {
          query: `mutation($d: String!) { bookAppointment(appointmentType: "phone", dateTime: $d) {
            __typename ... on AppError { code message } } }`,
          variables: { d: dateTime },
        },
        client,
      );
      expect(res.errors).toEqual([]);
      expect(res.data.bookAppointment).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message: APPOINTMENT_MESSAGES.dateTime,
      });
    },
  );
});

describe("NUL and unpaired surrogates", () => {
  const typed = "{ __typename ... on AppError { code message } }";
  const fields: Record<string, string> = {
    updateNotes: `mutation($s: String!) { updateNotes(notes: $s) ${typed} }`,
    login: `mutation($s: String!) { login(login: $s, password: "x") ${typed} }`,
    userByUniqueId: `query($s: String!) { userByUniqueId(uniqueId: $s) ${typed} }`,
  };

  it.each([
    ["updateNotes", "a NUL", "a\u0000"],
    ["updateNotes", "a lone surrogate", "caf\ud800e"],
    ["login", "a NUL", "a\u0000"],
    ["userByUniqueId", "a NUL", "\u0000"],
  ])("%s answers %s as a typed VALIDATION_FAILED", async (field, _name, s) => {
    const res = await gql({ query: fields[field], variables: { s } }, admin);
    expect(res.errors).toEqual([]);
    expect(res.data[field]).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: UNSAFE_TEXT_MESSAGE,
    });
  });

  it("answers a valid lookup made in the same tick as a NUL one (one batched query)", async () => {
    const user = await createUser(h.db);
    const res = await gql(
      {
        query: `query($bad: String!, $good: String!) {
          bad: userByUniqueId(uniqueId: $bad) { __typename ... on AppError { code } }
          good: userByUniqueId(uniqueId: $good) { __typename ... on QueryUserByUniqueIdSuccess { data { id } } }
          again: userByUniqueId(uniqueId: $good) { __typename ... on QueryUserByUniqueIdSuccess { data { id } } }
        }`,
        variables: { bad: "ESRT-\u0000", good: user.uniqueId },
      },
      admin,
    );
    expect(res.errors).toEqual([]);
    expect(res.data).toEqual({
      bad: { __typename: "AppError", code: "VALIDATION_FAILED" },
      good: { __typename: "QueryUserByUniqueIdSuccess", data: { id: user.id } },
      again: { __typename: "QueryUserByUniqueIdSuccess", data: { id: user.id } },
    });
  });
});

describe("ids", () => {
  it.each([
    [
      "cancelMyAppointment(id: 0)",
      "mutation { r: cancelMyAppointment(id: 0) { __typename ... on AppError { code } } }",
    ],
    [
      "confirmAppointment(id: -1)",
      "mutation { r: confirmAppointment(id: -1) { __typename ... on AppError { code } } }",
    ],
    [
      "securityQuestions(userId: 0)",
      "{ r: securityQuestions(userId: 0) { __typename ... on AppError { code } } }",
    ],
    [
      "changeUserStatus(userId: -5)",
      "mutation { r: changeUserStatus(userId: -5, status: archived) { __typename ... on AppError { code } } }",
    ],
  ])("%s answers a typed VALIDATION_FAILED", async (_name, query) => {
    const res = await gql({ query }, admin);
    expect(res.errors).toEqual([]);
    expect(res.data.r).toEqual({ __typename: "AppError", code: "VALIDATION_FAILED" });
  });

  it("answers adminAppointments(userId: 0) with VALIDATION_FAILED and 2147483648 with BAD_USER_INPUT", async () => {
    const zero = await gql({ query: "{ adminAppointments(userId: 0) { id } }" }, admin);
    expect(zero.errors.map((e) => e.extensions?.code)).toEqual(["VALIDATION_FAILED"]);
    const big = await gql(
      { query: "query($u: Int) { adminAppointments(userId: $u) { id } }", variables: { u: 2147483648 } },
      admin,
    );
    expect(big.status).toBe(400);
    expect(big.errors.map((e) => e.extensions?.code)).toEqual(["BAD_USER_INPUT"]);
  });
});

describe("client mistakes are client errors", () => {
  it("answers a subscription operation with 400 BAD_REQUEST", async () => {
    const res = await gql({ query: "subscription { health }" });
    expect(res.status).toBe(400);
    expect(res.errors.map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
    expect(res.errors[0]?.message).toMatch(/subscription/i);
  });

  it.each([
    ["an unknown hash", { version: 1, sha256Hash: "0".repeat(64) }],
    ["another version", { version: 2, sha256Hash: "abc" }],
    ["a hash that is not text", { version: 1, sha256Hash: 12 }],
  ])("answers a persisted query with %s as a 4xx client error", async (_name, persistedQuery) => {
    const res = await gql({ extensions: { persistedQuery } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.errors.map((e) => e.extensions?.code)).not.toContain("INTERNAL_SERVER_ERROR");
  });
});

describe("dates outside the years PostgreSQL holds", () => {
  // JavaScript reads "0000-01-01" as a date; PostgreSQL has no year 0 and refused it (SQLSTATE
  // 22008): every filter below answered 500 (the fuzz test found the audit export's)
  const YEAR_0 = "0000-01-01T00:00:00Z";
  it.each([
    ["the delivery log", `{ emailMessages(filter: { from: "${YEAR_0}" }) { nodes { id } } }`],
    ["the documents list", `{ documents(filter: { to: "${YEAR_0}" }) { totalCount } }`],
    ["the Pro-app deliveries", `{ esrtDeliveries(filter: { from: "${YEAR_0}" }) { totalCount } }`],
    ["the appointments list", `{ adminAppointments(from: "0000-01-01") { id } }`],
  ])("are a client's mistake in %s", async (_name, query) => {
    const res = await gql({ query }, admin);
    expect(res.errors.map((e) => e.extensions?.code)).toEqual(["VALIDATION_FAILED"]);
    expect(res.text).not.toMatch(INTERNAL_LEAK);
  });

  it("are a client's mistake in the user directory, and in the REST appointments list", async () => {
    const res = await gql(
      {
        query: `{ userDirectory(filter: { lastLoginTo: "${YEAR_0}" }) {
          __typename ... on AppError { code message } } }`,
      },
      admin,
    );
    expect(res.data.userDirectory).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Please enter a valid date",
    });
    const rest = await request(h.app).get("/api/admin/appointments?to=0000-01-01").set("Cookie", admin);
    expect(rest.status).toBe(400);
    expect(rest.body.message).toBe("Dates must lie between 0001-01-02 and 9999-12-30");
    // the first and last days every business time zone can hold are still a filter
    const edges = await request(h.app)
      .get("/api/admin/appointments?from=0001-01-02&to=9999-12-30")
      .set("Cookie", admin);
    expect(edges.status).toBe(200);
  });
});

describe("the same-origin rule", () => {
  it("refuses a mutation from another site with 403 and does not run it", async () => {
    const cookie = await signIn((await createUser(h.db)).username);
    for (const headers of [{ Origin: "http://evil.example" }, { "Sec-Fetch-Site": "cross-site" }]) {
      const res = await request(h.app)
        .post("/graphql")
        .set("Cookie", cookie)
        .set(headers)
        .send({ query: "mutation { logout }" });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Cross-site request refused" });
    }
    const still = await request(h.app).get("/api/session-check").set("Cookie", cookie);
    expect(still.status).toBe(200);
  });

  it("refuses a cross-site document that holds a mutation, or that cannot be read", async () => {
    for (const body of [
      { query: "query A { health } mutation B { logout }", operationName: "A" },
      { query: "mutation {" },
      { extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } },
    ]) {
      const res = await request(h.app).post("/graphql").set("Origin", "http://evil.example").send(body);
      expect(res.status).toBe(403);
    }
  });

  it("answers a query from another site, and a mutation from the portal's own origin", async () => {
    const query = await request(h.app)
      .post("/graphql")
      .set("Origin", "http://evil.example")
      .send({ query: "{ health }" });
    expect(query.status).toBe(200);
    expect(query.body.data).toEqual({ health: "ok" });
    const own = await request(h.app)
      .post("/graphql")
      .set("Host", "portal.example")
      .set("Origin", "http://portal.example")
      .send({ query: "mutation { logout }" });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual({ logout: true });
  });
});

describe("unexpected errors", () => {
  it("hide their detail in development too, and carry the request id", async () => {
    // an empty database: every query fails inside Prisma ('relation ... does not exist')
    const scratch = await scratchDatabase();
    const broken = await connectPostgres(scratch.url);
    const web = fakeWebDist();
    const cfg = testConfig({ NODE_ENV: "development" });
    const { app, stop } = await createApp({
      config: cfg,
      db: broken,
      readiness: {},
      sessionStore: redisSessionStore(h.redis, cfg),
      webDist: web.dir,
      redis: h.redis,
    });
    try {
      const rest = await request(app).get("/api/branding");
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({
        message: "Internal server error",
        code: "INTERNAL",
        requestId: rest.headers["x-request-id"],
      });
      const graphql = await request(app).post("/graphql").send({ query: "{ branding { title } }" });
      expect(graphql.body.errors).toEqual([
        {
          message: "Internal server error",
          locations: [{ line: 1, column: 3 }],
          path: ["branding"],
          extensions: { code: "INTERNAL_SERVER_ERROR", requestId: graphql.headers["x-request-id"] },
        },
      ]);
      for (const text of [rest.text, graphql.text]) expect(text).not.toMatch(INTERNAL_LEAK);
    } finally {
      await stop();
      web.remove();
      await broken.close();
      await scratch.drop();
    }
  });
});
