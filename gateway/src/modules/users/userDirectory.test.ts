import { identityAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { createAdmin, createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import { parse as parseCsv } from "csv-parse/sync";
import request from "supertest";

// The user directory over GraphQL (userDirectory, userDirectoryFacets) and its CSV export
// (GET /api/admin/users/export.csv): the permission matrix (signed out and each role), a bad cursor,
// and the export's content: the filter, every public column, no secret, formula cells escaped.

let tag: string;

const h = identityAppFixture({}, { noLeaks: true });
beforeAll(async () => {
  tag = `gx${uniqueSuffix()}`;
});

async function cookieOf(userType: UserType): Promise<string> {
  const user =
    userType === "mainAdmin" || userType === "userAdmin"
      ? await createAdmin(h.db, { userType })
      : await createUser(h.db, { userType });
  const res = await request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  return sessionCookieOf(res) ?? "";
}

async function gql(query: string, variables: Record<string, unknown>, cookie = "") {
  const res = await request(h.app).post("/graphql").set("Cookie", cookie).send({ query, variables });
  h.bodies.push(res.text);
  return res;
}

const DIRECTORY = `query($filter: UserFilter, $sort: UserSort, $first: Int, $after: String) {
  userDirectory(filter: $filter, sort: $sort, first: $first, after: $after) {
    __typename ... on AppError { code message }
    ... on QueryUserDirectorySuccess { data { nodes { id firstName email userType } endCursor hasNextPage } } } }`;

const FACETS = `query($filter: UserFilter) { userDirectoryFacets(filter: $filter) {
  __typename ... on AppError { code message }
  ... on QueryUserDirectoryFacetsSuccess { data { total userTypes { value count } emailVerified { yes no } } } } }`;

/** The code of a refused operation: the auth scopes answer with a top-level error and no data. */
function codeOf(res: request.Response): string | undefined {
  expect(res.body.data).toBeNull();
  return res.body.errors?.[0]?.extensions?.code;
}

const exportOf = (query: string, cookie = "") => {
  return request(h.app)
    .get(`/api/admin/users/export.csv${query}`)
    .set("Cookie", cookie)
    .buffer(true)
    .parse((res, done) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => done(null, text));
    });
};

describe("the permission matrix", () => {
  it("signed out: both queries UNAUTHENTICATED, the export 401", async () => {
    expect(codeOf(await gql(DIRECTORY, {}))).toBe("UNAUTHENTICATED");
    expect(codeOf(await gql(FACETS, {}))).toBe("UNAUTHENTICATED");
    expect((await exportOf("")).status).toBe(401);
  });

  it.each(["client", "prospect", "user"] as const)("a %s: FORBIDDEN and 403", async (userType) => {
    const cookie = await cookieOf(userType);
    expect(codeOf(await gql(DIRECTORY, {}, cookie))).toBe("FORBIDDEN");
    expect(codeOf(await gql(FACETS, {}, cookie))).toBe("FORBIDDEN");
    expect((await exportOf("", cookie)).status).toBe(403);
  });

  it.each(["mainAdmin", "userAdmin"] as const)("a %s searches, counts and exports", async (userType) => {
    const cookie = await cookieOf(userType);
    const sub = `${tag}${userType}`;
    const target = await createUser(h.db, { companyName: `Matrix ${sub}`, firstName: "Matrix" });
    const page = await gql(DIRECTORY, { filter: { q: `matrix ${sub}` } }, cookie);
    expect(page.body.data.userDirectory.data).toEqual({
      nodes: [{ id: target.id, firstName: "Matrix", email: target.email, userType: "prospect" }],
      endCursor: expect.any(String),
      hasNextPage: false,
    });
    const facets = await gql(FACETS, { filter: { q: `matrix ${sub}` } }, cookie);
    expect(facets.body.data.userDirectoryFacets.data).toMatchObject({
      total: 1,
      emailVerified: { yes: 1, no: 0 },
    });
    const csv = await exportOf(`?q=${encodeURIComponent(`matrix ${sub}`)}`, cookie);
    expect(csv.status).toBe(200);
    expect(parseCsv(csv.body as string, { columns: true })).toHaveLength(1);
  });
});

describe("userDirectory", () => {
  it("pages by cursor and refuses a bad cursor or page size with VALIDATION_FAILED", async () => {
    const cookie = await cookieOf("mainAdmin");
    const sub = `cur${uniqueSuffix()}`;
    for (let i = 0; i < 3; i += 1) await createUser(h.db, { companyName: sub });
    const first = await gql(DIRECTORY, { filter: { q: sub }, first: 2 }, cookie);
    const data = first.body.data.userDirectory.data;
    expect(data.nodes).toHaveLength(2);
    expect(data.hasNextPage).toBe(true);
    const second = await gql(DIRECTORY, { filter: { q: sub }, first: 2, after: data.endCursor }, cookie);
    expect(second.body.data.userDirectory.data.nodes).toHaveLength(1);
    expect(second.body.data.userDirectory.data.hasNextPage).toBe(false);
    for (const variables of [
      { after: "not-a-cursor" },
      { after: data.endCursor, sort: { by: "name", direction: "asc" } },
      { first: 0 },
      { first: 201 },
      { filter: { q: "x".repeat(101) } },
    ]) {
      const res = await gql(DIRECTORY, { filter: { q: sub }, ...variables }, cookie);
      expect(res.status).toBeLessThan(500);
      expect(res.body.data.userDirectory).toMatchObject({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
      });
    }
  });
});

describe("GET /api/admin/users/export.csv", () => {
  it("exports the filtered users' public fields, every cell quoted and formulas escaped, and audits it", async () => {
    const cookie = await cookieOf("userAdmin");
    const sub = `exp${uniqueSuffix()}`;
    const evil = await createUser(h.db, {
      companyName: `${sub};=1+1`,
      firstName: '=HYPERLINK("http://evil.test","click")',
      lastName: "+Sum",
      phone: "-1",
      userType: "client",
    });
    const other = await createUser(h.db, { companyName: sub, lastName: "@Other", userType: "prospect" });
    await createUser(h.db, { companyName: `${sub}-elsewhere`, userType: "client", emailVerified: false });

    const all = await exportOf(`?q=${sub}&sort=name&direction=asc`, cookie);
    expect(all.status).toBe(200);
    expect(all.headers["content-type"]).toMatch(/^text\/csv/);
    expect(all.headers["content-disposition"]).toMatch(
      /^attachment; filename="?users-\d{4}-\d{2}-\d{2}\.csv"?$/,
    );
    const rows = parseCsv(all.body as string, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual([String(evil.id), String(other.id), expect.any(String)]);
    const first = rows[0] ?? {};
    expect(first.firstName).toBe(`'=HYPERLINK("http://evil.test","click")`);
    expect(first.lastName).toBe("'+Sum");
    expect(first.phone).toBe("'-1");
    // a spreadsheet splitting on ";" finds no formula: the cell is quoted and the formula escaped
    expect(first.companyName).toBe(`${sub};'=1+1`);
    expect(all.body as string).toContain(`"${sub};'=1+1"`);
    expect(first.email).toBe(evil.email);
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining(["uniqueId", "username", "userType", "userStatus", "accessLevel", "createdAt"]),
    );
    for (const secret of ["password", "resetToken", "resetTokenExpiresAt", "sessionsValidAfter"]) {
      expect(Object.keys(first)).not.toContain(secret);
    }
    expect(all.body as string).not.toContain("$argon2");

    const filtered = await exportOf(
      `?q=${sub}&userTypes=client&emailVerified=true&sort=createdAt&direction=desc`,
      cookie,
    );
    expect(
      (parseCsv(filtered.body as string, { columns: true }) as { id: string }[]).map((r) => r.id),
    ).toEqual([String(evil.id)]);
    const repeated = await exportOf(
      `?q=${sub}&userTypes=client&userTypes=prospect&emailVerified=true`,
      cookie,
    );
    expect(parseCsv(repeated.body as string, { columns: true })).toHaveLength(2);

    const entries = await h.db.prisma.auditLog.findMany({
      where: { action: "user.exported", metadata: { path: ["filter", "q"], equals: sub } },
      orderBy: { id: "asc" },
    });
    expect(entries.map((e) => (e.metadata as { rows: number }).rows)).toEqual([3, 1, 2]);
    expect(entries[1]?.metadata).toMatchObject({
      filter: { q: sub, userTypes: ["client"], emailVerified: true },
      sort: { by: "createdAt", direction: "desc" },
      complete: true,
    });
  });

  it("refuses bad parameters with 400 and the shared schema's message", async () => {
    const cookie = await cookieOf("mainAdmin");
    for (const query of [
      "?userTypes=emperor",
      "?emailVerified=maybe",
      "?sort=height",
      "?direction=up",
      "?createdFrom=2026-02-02&createdTo=2026-02-01",
      `?q=${"x".repeat(101)}`,
      "?createdFrom=not-a-date",
    ]) {
      const res = await exportOf(query, cookie);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body as string)).toMatchObject({ code: "VALIDATION_FAILED" });
    }
  });

  it("streams a large export in batches", async () => {
    const cookie = await cookieOf("mainAdmin");
    const sub = `big${uniqueSuffix()}`;
    await h.db.prisma.$executeRaw`
      INSERT INTO users ("uniqueId", username, email, password, "firstName", "lastName", "companyName")
      SELECT 'B' || ${sub}::text || g, 'b_' || ${sub}::text || g, 'b_' || ${sub}::text || g || '@example.test', 'x',
             'Bulk', 'Row ' || g, ${sub}::text
      FROM generate_series(1, 2500) g`;
    const res = await exportOf(`?q=${sub}`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBeUndefined();
    const rows = parseCsv(res.body as string, { columns: true }) as { id: string }[];
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2500);
  });
});
