import { isolatedAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { audit } from "@services/shared/audit";
import { listAuditEntries } from "@services/shared/auditLog";
import {
  createAdmin,
  createAppointment,
  createDocument,
  createUser,
  randomBusinessSlot,
  TEST_PASSWORD,
} from "@services/shared/testing/factories";
import { findUserNames } from "@services/user";
import request from "supertest";

// The audit log (issue 11) on a database of its own: every kind of admin and security action writes
// its row with the request's id and address; the audit query's filters and keyset pages; who may
// read the log, export it and see the dashboard; the export's formula escaping.

const harness = isolatedAppFixture({ settings: { ESRT_NATS: false } });

type Role = "mainAdmin" | "userAdmin" | "client" | "prospect";

let requestNo = 0;
/** A fresh request id, sent as x-request-id, to find the row the request wrote. */
function nextRequestId(): string {
  requestNo += 1;
  return `audit-test-${Date.now()}-${requestNo}`;
}

async function gql(query: string, cookie: string, variables: Record<string, unknown> = {}, requestId = "") {
  const req = request(harness.app).post("/graphql").set("Cookie", cookie);
  if (requestId) req.set("x-request-id", requestId);
  const res = await req.send({ query, variables });
  return { status: res.status, body: res.body, text: res.text };
}

async function signIn(userType: Role, requestId?: string) {
  const user = await createUser(harness.db, { userType, accessLevel: "full" });
  const req = request(harness.app).post("/api/login");
  if (requestId) req.set("x-request-id", requestId);
  const res = await req.send({ login: user.username, password: TEST_PASSWORD });
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { user, cookie };
}

async function rowsOf(requestId: string) {
  return harness.db.prisma.auditLog.findMany({ where: { requestId }, orderBy: { id: "asc" } });
}

describe("every kind of admin and security action is audited with its request id and address", () => {
  let admin: { user: { id: number }; cookie: string };
  beforeAll(async () => {
    admin = await signIn("mainAdmin");
  });

  async function expectRow(requestId: string, action: string, check: Record<string, unknown> = {}) {
    const rows = await rowsOf(requestId);
    const row = rows.find((r) => r.action === action);
    expect({ requestId, actions: rows.map((r) => r.action) }).toEqual({
      requestId,
      actions: expect.arrayContaining([action]),
    });
    expect(row?.ip).toMatch(/\d/);
    expect(row).toMatchObject(check);
    return row;
  }

  test("a sign-in and a failed sign-in", async () => {
    const ok = nextRequestId();
    const { user } = await signIn("client", ok);
    await expectRow(ok, "user.login_succeeded", { actorId: user.id, targetId: String(user.id) });

    const failed = nextRequestId();
    const res = await request(harness.app)
      .post("/api/login")
      .set("x-request-id", failed)
      .send({ login: user.username, password: "Wrong-password-1!" });
    expect(res.status).toBe(401);
    await expectRow(failed, "user.login_failed", { targetType: "user", targetId: String(user.id) });
  });

  test("a sign-out", async () => {
    const { user, cookie } = await signIn("client");
    const id = nextRequestId();
    const res = await request(harness.app).post("/api/logout").set("Cookie", cookie).set("x-request-id", id);
    expect(res.status).toBe(200);
    await expectRow(id, "user.logged_out", { actorId: user.id, targetId: String(user.id) });
  });

  test("changes of type, status and access level, with before and after", async () => {
    const target = await createUser(harness.db, { userType: "prospect" });
    const cases = [
      [
        "user.type_changed",
        `mutation { changeUserType(userId: ${target.id}, userType: client) { __typename } }`,
        "prospect",
        "client",
      ],
      [
        "user.status_changed",
        `mutation { changeUserStatus(userId: ${target.id}, status: inactive) { __typename } }`,
        "active",
        "inactive",
      ],
      [
        "user.access_level_changed",
        `mutation { changeUserAccessLevel(userId: ${target.id}, accessLevel: full) { __typename } }`,
        "limited",
        "full",
      ],
    ] as const;
    for (const [action, mutation, before, after] of cases) {
      const id = nextRequestId();
      const res = await gql(mutation, admin.cookie, {}, id);
      expect(res.text).not.toContain("AppError");
      await expectRow(id, action, { actorId: admin.user.id, targetId: String(target.id), before, after });
    }
  });

  test("a password change", async () => {
    const { user, cookie } = await signIn("client");
    const id = nextRequestId();
    const res = await gql(
      `mutation { changePassword(currentPassword: "${TEST_PASSWORD}", newPassword: "Fresh-Pass-42#x") { __typename } }`,
      cookie,
      {},
      id,
    );
    expect(res.text).not.toContain("AppError");
    await expectRow(id, "user.password_changed", { targetId: String(user.id) });
  });

  test("a settings change (storage) and an ESRT key", async () => {
    const storage = nextRequestId();
    const res = await gql(
      `mutation { updateStorageSettings(input: { storageType: local, maxFileSize: 5000000, allowedFileTypes: ["pdf", "txt"] }) { __typename } }`,
      admin.cookie,
      {},
      storage,
    );
    expect(res.text).not.toContain("AppError");
    const row = await expectRow(storage, "storage.settings_updated", { actorId: admin.user.id });
    expect(row?.before).toMatchObject({ maxFileSize: expect.anything() });
    expect(row?.after).toMatchObject({ allowedFileTypes: ["pdf", "txt"] });

    const key = nextRequestId();
    await gql(`mutation { createEsrtApiKey(name: "audit test") { __typename } }`, admin.cookie, {}, key);
    await expectRow(key, "esrt.api_key_created", { actorId: admin.user.id });
  });

  test("a document decision", async () => {
    const owner = await createUser(harness.db, { userType: "client" });
    const doc = await createDocument(harness.db, { userId: owner.id });
    const id = nextRequestId();
    const res = await gql(`mutation { approveDocument(id: ${doc.id}) { __typename } }`, admin.cookie, {}, id);
    expect(res.text).not.toContain("AppError");
    await expectRow(id, "document.approved", {
      targetId: String(doc.id),
      before: "pending",
      after: "approved",
    });
  });

  test("appointment actions: confirm, reschedule, cancel", async () => {
    const appointment = await createAppointment(harness.db);
    const confirm = nextRequestId();
    await gql(
      `mutation { confirmAppointment(id: ${appointment.id}) { __typename } }`,
      admin.cookie,
      {},
      confirm,
    );
    await expectRow(confirm, "appointment.confirmed", {
      targetType: "appointment",
      targetId: String(appointment.id),
      before: { status: "pending" },
      after: { status: "confirmed" },
    });

    let slot = randomBusinessSlot();
    while (slot.getTime() === appointment.dateTime.getTime()) slot = randomBusinessSlot();
    const move = nextRequestId();
    const moved = await gql(
      `mutation($t: String!) { rescheduleAppointment(id: ${appointment.id}, dateTime: $t) { __typename } }`,
      admin.cookie,
      { t: slot.toISOString() },
      move,
    );
    expect(moved.text).not.toContain("AppError");
    await expectRow(move, "appointment.rescheduled", {
      before: { dateTime: appointment.dateTime.toISOString() },
      after: { dateTime: slot.toISOString() },
    });

    const cancel = nextRequestId();
    await gql(
      `mutation { adminCancelAppointment(id: ${appointment.id}, reason: "Team away") { __typename } }`,
      admin.cookie,
      {},
      cancel,
    );
    await expectRow(cancel, "appointment.cancelled", { after: { status: "cancelled", reason: "Team away" } });
  });
});

const AUDIT_LOG = `query($filter: AuditFilter, $first: Int, $after: String) {
  auditLog(filter: $filter, first: $first, after: $after) {
    endCursor hasNextPage
    nodes { id action actorId actorName targetType targetId targetName ip requestId before after createdAt }
  } }`;

describe("the audit query", () => {
  let admin: { user: { id: number; firstName: string; lastName: string }; cookie: string };
  let target: { id: number; firstName: string; lastName: string };
  beforeAll(async () => {
    admin = await signIn("mainAdmin");
    target = await createUser(harness.db, { firstName: "Zoë", lastName: "O'Hara" });
    for (let i = 0; i < 7; i++) {
      await audit(harness.db.prisma, {
        action: "paging.test_step",
        actorId: admin.user.id,
        targetType: "user",
        targetId: target.id,
        metadata: { from: i, to: i + 1 },
      });
    }
  });

  test("filters by action, prefix, actor, target, time and text, and names actor and target", async () => {
    const run = async (filter: Record<string, unknown>) =>
      (await gql(AUDIT_LOG, admin.cookie, { filter, first: 50 })).body.data.auditLog.nodes as {
        action: string;
        actorName: string | null;
        targetName: string | null;
        before: unknown;
        after: unknown;
      }[];
    const byAction = await run({ action: "paging.test_step" });
    expect(byAction).toHaveLength(7);
    expect(byAction[0]).toMatchObject({
      actorName: `${admin.user.firstName} ${admin.user.lastName}`,
      targetName: "Zoë O'Hara",
      before: 6,
      after: 7,
    });
    expect(await run({ actionPrefix: "paging." })).toHaveLength(7);
    expect(await run({ q: "TEST_STEP" })).toHaveLength(7);
    expect((await run({ targetUserId: target.id })).every((e) => e.action === "paging.test_step")).toBe(true);
    expect((await run({ actorId: admin.user.id })).length).toBeGreaterThanOrEqual(8);
    expect(
      await run({ action: "paging.test_step", from: new Date(Date.now() + 60_000).toISOString() }),
    ).toEqual([]);
    expect(
      await run({ action: "paging.test_step", to: new Date(Date.now() + 60_000).toISOString() }),
    ).toHaveLength(7);
  });

  test("keyset pages neither repeat nor skip entries while new ones are written", async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await gql(AUDIT_LOG, admin.cookie, {
        filter: { targetUserId: target.id },
        first: 3,
        after,
      });
      const data = res.body.data.auditLog as {
        nodes: { id: number }[];
        endCursor: string;
        hasNextPage: boolean;
      };
      seen.push(...data.nodes.map((n) => n.id));
      // a new entry for the same target arrives between pages: it is newer than every page read
      await audit(harness.db.prisma, {
        action: "paging.test_step",
        actorId: null,
        targetType: "user",
        targetId: target.id,
      });
      if (!data.hasNextPage) break;
      after = data.endCursor;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  test("a bad filter, page size or cursor is a clear 4xx-style error, not a crash", async () => {
    const bad = async (variables: Record<string, unknown>) =>
      (await gql(AUDIT_LOG, admin.cookie, variables)).body;
    expect((await bad({ first: 0 })).errors[0].extensions.code).toBe("VALIDATION_FAILED");
    expect((await bad({ after: "bm9wZQ" })).errors[0].extensions.code).toBe("BAD_REQUEST");
    expect((await bad({ filter: { actorId: 0 } })).errors[0].extensions.code).toBe("VALIDATION_FAILED");
    expect(
      (await bad({ filter: { from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z" } })).errors[0].message,
    ).toBe("The start of a range must not be after its end");
  });

  test("a userAdmin does not read configuration changes; a mainAdmin does", async () => {
    await audit(harness.db.prisma, {
      action: "storage.settings_updated",
      actorId: admin.user.id,
      targetType: "storage_config",
    });
    const { cookie } = await signIn("userAdmin");
    const forUserAdmin = await gql(AUDIT_LOG, cookie, { filter: { actionPrefix: "storage." } });
    expect(forUserAdmin.body.data.auditLog.nodes).toEqual([]);
    const forMain = await gql(AUDIT_LOG, admin.cookie, { filter: { actionPrefix: "storage." } });
    expect(forMain.body.data.auditLog.nodes.length).toBeGreaterThan(0);
  });
});

describe("the names of actors and targets", () => {
  test("come from one read of the user service per page, for users only", async () => {
    const ann = await createUser(harness.db, { firstName: "Ann", lastName: "Lee" });
    const solo = await createUser(harness.db, { firstName: "", lastName: "Solo" });
    const blank = await createUser(harness.db, { firstName: "", lastName: "" });
    const gone = await createUser(harness.db, { firstName: "Gone", lastName: "User" });
    const action = `naming.test_${Date.now()}`;
    const entries: { actorId: number | null; targetType: string; targetId: string | number }[] = [
      { actorId: ann.id, targetType: "user", targetId: solo.id },
      // a document whose id is a user's: no name
      { actorId: solo.id, targetType: "document", targetId: ann.id },
      { actorId: blank.id, targetType: "user", targetId: `${ann.id}x` },
      { actorId: gone.id, targetType: "user", targetId: gone.id },
      { actorId: null, targetType: "user", targetId: ann.id },
    ];
    for (const entry of entries) await audit(harness.db.prisma, { action, ...entry });
    await harness.db.prisma.user.delete({ where: { id: gone.id } });
    const reads: number[][] = [];
    const page = await listAuditEntries({
      db: harness.db,
      userNames: (ids) => {
        reads.push([...ids].sort((a, b) => a - b));
        return findUserNames(harness.db, ids);
      },
      filter: { action },
      readerPermissions: [],
    });
    expect(page.nodes.map((e) => [e.actorName, e.targetName]).reverse()).toEqual([
      ["Ann Lee", "Solo"],
      ["Solo", null],
      [null, null],
      [null, null],
      [null, "Ann Lee"],
    ]);
    expect(reads).toEqual([[ann.id, solo.id, blank.id, gone.id].sort((a, b) => a - b)]);
  });
});

describe("who may read the log, export it and see the dashboard", () => {
  const roles: (Role | "signedOut")[] = ["mainAdmin", "userAdmin", "client", "prospect", "signedOut"];
  const allowed = new Set(["mainAdmin", "userAdmin"]);
  const cookies = new Map<string, string>();
  beforeAll(async () => {
    for (const role of roles) cookies.set(role, role === "signedOut" ? "" : (await signIn(role)).cookie);
  });

  test.each(roles)("%s", async (role) => {
    const cookie = cookies.get(role) ?? "";
    const log = await gql("{ auditLog(first: 1) { hasNextPage } }", cookie);
    const dash = await gql("{ adminDashboard { pendingDocuments links { figure allowed } } }", cookie);
    const csv = await request(harness.app).get("/api/admin/audit/export.csv").set("Cookie", cookie);
    if (allowed.has(role)) {
      expect([log.body.errors, dash.body.errors, csv.status]).toEqual([undefined, undefined, 200]);
      return;
    }
    const code = role === "signedOut" ? "UNAUTHENTICATED" : "FORBIDDEN";
    expect([log.body.errors?.[0]?.extensions?.code, dash.body.errors?.[0]?.extensions?.code]).toEqual([
      code,
      code,
    ]);
    expect(csv.status).toBe(role === "signedOut" ? 401 : 403);
  });

  test("the dashboard tells which pages each admin may follow", async () => {
    const links = async (role: Role) => {
      const res = await gql("{ adminDashboard { links { figure path allowed } } }", cookies.get(role) ?? "");
      return Object.fromEntries(
        (res.body.data.adminDashboard.links as { figure: string; allowed: boolean }[]).map((l) => [
          l.figure,
          l.allowed,
        ]),
      );
    };
    expect(await links("mainAdmin")).toEqual({
      users: true,
      unverified: true,
      pendingDocuments: true,
      appointments: true,
      sync: true,
      emailFailures: true,
    });
    expect(await links("userAdmin")).toEqual({
      users: true,
      unverified: true,
      pendingDocuments: true,
      appointments: true,
      sync: true,
      emailFailures: false,
    });
  });
});

describe("the CSV export", () => {
  test("streams the filtered entries with formula cells escaped, and is itself audited", async () => {
    const admin = await createAdmin(harness.db, { firstName: '=HYPERLINK("http://x")', lastName: "Evil" });
    await audit(harness.db.prisma, {
      action: "export.check",
      actorId: admin.id,
      targetType: "user",
      targetId: admin.id,
      metadata: { from: "+cmd", to: "@SUM(A1)" },
    });
    // a failed sign-in of an unknown account names a digest, not a user: no user is looked up for it
    await request(harness.app)
      .post("/api/login")
      .send({ login: "nobody-at-all", password: "Wrong-password-1!" });
    const login = await request(harness.app)
      .post("/api/login")
      .send({ login: admin.username, password: TEST_PASSWORD });
    const cookie = sessionCookieOf(login) ?? "";
    const res = await request(harness.app)
      .get("/api/admin/audit/export.csv?action=export.check")
      .set("Cookie", cookie)
      .set("x-request-id", "export-request-0001");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.text.trim().split("\n");
    expect(lines[0]).toBe(
      '"time","action","actorId","actor","targetType","targetId","target","before","after","ip","requestId","details"',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"") Evil"`);
    expect(lines[1]).toContain(`,"'+cmd","'@SUM(A1)",`);
    expect(lines[1]).not.toMatch(/[,;]"?[=+@-]/);
    const all = await request(harness.app).get("/api/admin/audit/export.csv").set("Cookie", cookie);
    expect(all.status).toBe(200);
    expect(all.text).toContain("login_sha256");
    const exported = await rowsOf("export-request-0001");
    expect(exported.map((r) => r.action)).toEqual(["audit.exported"]);
  });

  test("a bad filter is a 400 with the schema's message", async () => {
    const admin = await signIn("mainAdmin");
    const res = await request(harness.app)
      .get("/api/admin/audit/export.csv?actorId=abc&from=yesterday")
      .set("Cookie", admin.cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The actor is a user id");
    const repeated = await request(harness.app)
      .get("/api/admin/audit/export.csv?action=a&action=b")
      .set("Cookie", admin.cookie);
    expect(repeated.status).toBe(400);
    // a year PostgreSQL has not (0) or cannot hold is the filter's mistake, not the server's (the
    // fuzz test found "to=0000-01-01T00:00:00Z" answered 500)
    for (const to of ["0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z"]) {
      const res = await request(harness.app)
        .get(`/api/admin/audit/export.csv?to=${encodeURIComponent(to)}`)
        .set("Cookie", admin.cookie);
      expect([to, res.status, res.body.message]).toEqual([to, 400, "Please enter a valid date"]);
    }
    const earliest = await request(harness.app)
      .get("/api/admin/audit/export.csv?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z")
      .set("Cookie", admin.cookie);
    expect(earliest.status).toBe(200);
  });
});
