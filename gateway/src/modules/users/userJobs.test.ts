import { request as httpRequest } from "node:http";
import { graphqlClient, isolatedAppFixture, sessionFor } from "@gateway/testing/fixtures";
import { createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { listenOnLoopback } from "@services/shared/testing/loopback";
import request from "supertest";

// Creating users, bulk jobs and the client import over GraphQL and REST, on a database of the
// file's own: who may call each operation (signed out, client, prospect, user, userAdmin, mainAdmin),
// a userAdmin refused the admin types, and the answers an admin gets.

const harness = isolatedAppFixture();

type Who = "client" | "prospect" | "user" | "userAdmin" | "mainAdmin";

async function signIn(userType: Who): Promise<{ cookie: string; id: number }> {
  const user = await createUser(harness.db, { userType });
  return { cookie: await sessionFor(harness.app, user.username), id: user.id };
}

const gql = graphqlClient(harness);

function postImport(cookie: string, body: unknown) {
  return request(harness.app)
    .post("/api/admin/users/import")
    .set("Cookie", cookie)
    .send(body as object);
}

/**
 * The status the import answers a POST that declares `length` bytes of JSON and sends only its first
 * kilobyte; fails when no answer comes within 5 seconds (the server waits for the rest).
 */
async function answerToPartialImport(cookie: string, length: number): Promise<number> {
  const server = await listenOnLoopback(harness.app);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "Content-Length": String(length),
  };
  if (cookie) headers.Cookie = cookie;
  const req = httpRequest({
    host: "127.0.0.1",
    port: server.port,
    path: "/api/admin/users/import",
    method: "POST",
    headers,
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer before the body was sent")), 5000);
      req.on("response", (res) => {
        clearTimeout(timer);
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.write(`{"csv": "${"x".repeat(1024)}`);
    });
  } finally {
    req.destroy();
    await server.close();
  }
}

const CREATE = `mutation ($input: NewUserInput!) { createUser(input: $input) {
  __typename ... on AppError { code message } ... on InvalidFields { message fields { field message } }
  ... on MutationCreateUserSuccess { data { id username userType } } } }`;
const START = `mutation ($ids: [Int!], $filter: UserFilter, $action: UserBulkAction!, $value: String) {
  startUserBulkJob(ids: $ids, filter: $filter, action: $action, value: $value) {
  __typename ... on AppError { code message } ... on MutationStartUserBulkJobSuccess { data { id total status } } } }`;

function newUser(userType: string) {
  const t = uniqueSuffix();
  return { username: `gql_${t}`, email: `gql_${t}@client.test`, firstName: "Gia", lastName: "Ql", userType };
}

const OPERATIONS: Record<string, [string, Record<string, unknown>]> = {
  grantable: ["{ grantableUserTypes }", {}],
  job: ["{ userBulkJob(id: 1) { id } }", {}],
  jobs: ["{ userBulkJobs { id } }", {}],
  create: [CREATE, { input: newUser("client") }],
  start: [START, { ids: [1], action: "setAccessLevel", value: "full" }],
};

describe("who may create users, run bulk jobs and import", () => {
  it.each(["anonymous", "client", "prospect", "user"] as const)(
    "%s is refused every operation",
    async (who) => {
      const cookie = who === "anonymous" ? "" : (await signIn(who)).cookie;
      for (const [name, [query, variables]] of Object.entries(OPERATIONS)) {
        const { data, errors } = await gql(query, cookie, variables);
        expect([name, errors?.[0]?.extensions?.code]).toEqual([
          name,
          who === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN",
        ]);
        expect(data === null || Object.values(data).every((v) => v === null)).toBe(true);
      }
      const res = await postImport(cookie, { csv: "firstName", dryRun: true });
      expect(res.status).toBe(who === "anonymous" ? 401 : 403);
      expect(await harness.db.prisma.userJob.count()).toBe(0);
    },
  );

  it.each(["anonymous", "client", "user"] as const)(
    "%s is refused the import before its body is read",
    async (who) => {
      const cookie = who === "anonymous" ? "" : (await signIn(who)).cookie;
      const status = who === "anonymous" ? 401 : 403;
      // a 4 MB body of which only the first kilobyte is ever sent: the answer comes without the rest
      expect(await answerToPartialImport(cookie, 4 * 1024 * 1024)).toBe(status);
      // the whole body, not even JSON: refused for who asks, not for what it holds (never parsed)
      const junk = await request(harness.app)
        .post("/api/admin/users/import")
        .set("Cookie", cookie)
        .set("Content-Type", "application/json")
        .send(`{"csv": "${"x".repeat(3 * 1024 * 1024)}`);
      expect(junk.status).toBe(status);
    },
  );

  it.each(["userAdmin", "mainAdmin"] as const)("%s may (manage:users)", async (who) => {
    const { cookie } = await signIn(who);
    for (const [name, [query, variables]] of Object.entries(OPERATIONS)) {
      const { errors } = await gql(query, cookie, variables);
      expect([name, errors]).toEqual([name, undefined]);
    }
    const res = await postImport(cookie, {
      csv: "firstName,lastName,username,email,phone,companyName\n",
      dryRun: true,
    });
    expect([res.status, res.body.message]).toEqual([400, "The file has no rows under its header"]);
    await harness.db.prisma.userJob.deleteMany({});
  });

  it("refuses a userAdmin creating or bulk-granting mainAdmin and userAdmin; a mainAdmin may", async () => {
    const userAdmin = await signIn("userAdmin");
    const mainAdmin = await signIn("mainAdmin");
    const target = await createUser(harness.db);
    expect((await gql("{ grantableUserTypes }", userAdmin.cookie)).data.grantableUserTypes).toEqual([
      "prospect",
      "user",
      "client",
    ]);
    for (const type of ["mainAdmin", "userAdmin"]) {
      const created = await gql(CREATE, userAdmin.cookie, { input: newUser(type) });
      expect(created.data.createUser).toMatchObject({ __typename: "AppError", code: "FORBIDDEN" });
      const started = await gql(START, userAdmin.cookie, {
        ids: [target.id],
        action: "setType",
        value: type,
      });
      expect(started.data.startUserBulkJob).toMatchObject({ __typename: "AppError", code: "FORBIDDEN" });
    }
    expect(
      await harness.db.prisma.user.count({
        where: { username: { startsWith: "gql_" }, userType: { in: ["mainAdmin", "userAdmin"] } },
      }),
    ).toBe(0);
    const byMain = await gql(CREATE, mainAdmin.cookie, { input: newUser("userAdmin") });
    expect(byMain.data.createUser).toMatchObject({
      __typename: "MutationCreateUserSuccess",
      data: { userType: "userAdmin" },
    });
  });
});

describe("answers", () => {
  it("reports each invalid or taken field of a new user by name, in the registration's words", async () => {
    const { cookie } = await signIn("userAdmin");
    const bad = await gql(CREATE, cookie, {
      input: { username: "ab", email: "nope", firstName: "", lastName: "L", phone: "12", userType: "client" },
    });
    expect(bad.data.createUser).toEqual({
      __typename: "InvalidFields",
      message: "Username must be at least 3 characters",
      fields: [
        { field: "username", message: "Username must be at least 3 characters" },
        { field: "email", message: "Please enter a valid email address" },
        { field: "firstName", message: "First name is required" },
        { field: "phone", message: "Please enter a valid phone number" },
      ],
    });
    const input = newUser("client");
    await gql(CREATE, cookie, { input });
    const again = await gql(CREATE, cookie, { input: { ...input, email: `other_${input.email}` } });
    expect(again.data.createUser).toMatchObject({
      __typename: "InvalidFields",
      fields: [{ field: "username", message: "Username already taken" }],
    });
  });

  it("starts a job by filter, shows its progress and results, and refuses a selection of both kinds", async () => {
    const { cookie } = await signIn("mainAdmin");
    const company = `Gql Co ${uniqueSuffix()}`;
    await createUser(harness.db, { companyName: company });
    await createUser(harness.db, { companyName: company });
    const both = await gql(START, cookie, {
      ids: [1],
      filter: { q: company },
      action: "setStatus",
      value: "inactive",
    });
    expect(both.data.startUserBulkJob).toMatchObject({ code: "VALIDATION_FAILED" });
    const badValue = await gql(START, cookie, {
      filter: { q: company },
      action: "setStatus",
      value: "asleep",
    });
    expect(badValue.data.startUserBulkJob).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Please choose one of: active, inactive, archived",
    });
    const started = await gql(START, cookie, {
      filter: { q: company },
      action: "setStatus",
      value: "inactive",
    });
    const job = started.data.startUserBulkJob.data;
    expect(job).toMatchObject({ total: 2, status: "queued" });
    const view = await gql(
      `query ($id: Int!) { userBulkJob(id: $id) { id status total done skipped failed processed percent
        results(first: 1) { totalCount hasNextPage endCursor nodes { position userId outcome message } } } }`,
      cookie,
      { id: job.id },
    );
    expect(view.data.userBulkJob).toMatchObject({
      status: "queued",
      total: 2,
      processed: 0,
      percent: 0,
      results: { totalCount: 2, hasNextPage: true, nodes: [{ position: 1, outcome: "pending" }] },
    });
    const bad = await gql(`{ userBulkJob(id: ${job.id}) { results(after: "%%%") { totalCount } } }`, cookie);
    expect(bad.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    await harness.db.prisma.userJob.deleteMany({});
  });

  it("imports over REST: a dry run answers the report, a real run the job", async () => {
    const { cookie } = await signIn("userAdmin");
    const t = uniqueSuffix();
    const csv = `firstName,lastName,username,email,phone,companyName\nAda,L,ada_${t},ada_${t}@client.test,,\n,B,x,bad,,\n`;
    const dry = await postImport(cookie, { csv, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      totalRows: 2,
      acceptedRows: 1,
      rejectedRows: 1,
      job: null,
    });
    expect(dry.body.errors).toEqual([
      { row: 3, field: "firstName", message: "First name is required" },
      { row: 3, field: "username", message: "Username must be at least 3 characters" },
      { row: 3, field: "email", message: "Please enter a valid email address" },
    ]);
    const real = await postImport(cookie, { csv, dryRun: false });
    expect(real.body).toMatchObject({ acceptedRows: 1, job: { kind: "import", total: 1 } });
    expect((await postImport(cookie, { csv: 7, dryRun: true })).status).toBe(400);
    const text = await request(harness.app)
      .post("/api/admin/users/import")
      .set("Cookie", cookie)
      .set("Content-Type", "text/csv")
      .send(csv);
    expect(text.status).toBe(415);
    await harness.db.prisma.userJob.deleteMany({});
  });
});
