import type { UserFilter, UserSort } from "@schema/validation/userDirectory";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import { testDb } from "@services/shared/testing/db";
import { createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { exportBatches } from "./exportUsers";
import { directoryFacets } from "./facets";
import { type DirectoryUser, directoryPage, type Reading, readingFor, searchUsers } from "./searchUsers";

// The user directory's search, filters, sorts, keyset pages and facet counts, on the run's database.
// Other test files write users to the same database at the same time, so every assertion is about
// this file's users: each carries a tag of its own in the company name, and filters include it.

let db: Db;
let tag: string;
const mine: User[] = [];

async function make(fields: Parameters<typeof createUser>[1]): Promise<User> {
  const user = await createUser(db, { companyName: `Acme ${tag}`, ...fields });
  mine.push(user);
  return user;
}

/** Every user of a search, through all its pages. */
async function all(
  filter: UserFilter,
  sort: UserSort = { by: "createdAt", direction: "desc" },
  first = 3,
  reading?: Reading,
) {
  const found: DirectoryUser[] = [];
  let after: string | null = null;
  for (let i = 0; i < 100; i += 1) {
    const page = await directoryPage(db, { filter, sort, first, after, reading });
    found.push(...page.nodes);
    if (!page.hasNextPage) break;
    after = page.endCursor;
  }
  return found;
}

const ids = (users: { id: number }[]) => users.map((u) => u.id);
const idsOfMine = async (q: string) => {
  const found = new Set(ids(await all({ q })));
  return mine.filter((u) => found.has(u.id)).map((u) => u.id);
};

let zoe: User;
let obrien: User;
let mixed: User;
let plain: User;

beforeAll(async () => {
  db = await testDb();
  tag = `dir${uniqueSuffix()}`;
  zoe = await make({ firstName: "Zoë", lastName: `Ångström${tag}`, phone: "+41 44 555 0101" });
  obrien = await make({ firstName: "Seán", lastName: `O'Brien${tag}`, userType: "client" });
  mixed = await make({ firstName: "mcDONALD", lastName: `VanDerBerg${tag}`, userStatus: "inactive" });
  plain = await make({
    firstName: "Ada",
    lastName: `Lovelace${tag}`,
    userType: "client",
    accessLevel: "full",
    emailVerified: false,
    esrtSynced: true,
    lastLoginAt: new Date("2026-03-01T10:00:00Z"),
  });
});

describe("search", () => {
  it("ignores accents both ways: Zoe finds Zoë, Zoë finds Zoe-less text, angstrom finds Ångström", async () => {
    expect(await idsOfMine(`zoe angstrom${tag}`)).toEqual([zoe.id]);
    expect(await idsOfMine(`ZOË ÅNGSTRÖM${tag}`)).toEqual([zoe.id]);
    expect(await idsOfMine(`sean o'brien${tag}`)).toEqual([obrien.id]);
  });

  it("matches apostrophes, including the typographic one, and mixed case", async () => {
    expect(await idsOfMine(`O'BRIEN${tag}`)).toEqual([obrien.id]);
    expect(await idsOfMine(`o’brien${tag}`)).toEqual([obrien.id]);
    expect(await idsOfMine(`McDonald vanderberg${tag}`)).toEqual([mixed.id]);
  });

  it("finds parts of words in every searched column", async () => {
    for (const [q, user] of [
      [plain.username.slice(2, 10), plain], // username
      [plain.email.split("@")[0]?.slice(0, 9) ?? "", plain], // prefix of the email
      [`velace${tag}`, plain], // part of the last name
      [`44 555 01`, zoe], // part of the phone
      [zoe.uniqueId.slice(1, 7), zoe], // part of the uniqueId
    ] as const) {
      expect(await idsOfMine(q)).toContain(user.id);
    }
    const byCompany = await idsOfMine(`acme ${tag}`);
    expect(byCompany.sort()).toEqual(ids(mine).sort());
  });

  it("treats % and _ as themselves, and finds nothing for text no user has", async () => {
    expect(await idsOfMine(`%${tag}`)).toEqual([]);
    expect(await idsOfMine(`_${tag}`)).toEqual([]);
    expect((await all({ q: `nobody-${tag}-zz` })).length).toBe(0);
  });
});

describe("filters", () => {
  const f = (extra: UserFilter) => all({ q: tag, ...extra }).then(ids);

  it("narrows by each field, and combines fields with AND and values with OR", async () => {
    expect((await f({ userTypes: ["client"] })).sort()).toEqual([obrien.id, plain.id].sort());
    expect(await f({ userStatuses: ["inactive"] })).toEqual([mixed.id]);
    expect((await f({ userStatuses: ["active", "inactive"] })).length).toBe(4);
    expect(await f({ accessLevels: ["full"] })).toEqual([plain.id]);
    expect(await f({ emailVerified: false })).toEqual([plain.id]);
    expect((await f({ emailVerified: true })).length).toBe(3);
    expect(await f({ esrtSynced: true })).toEqual([plain.id]);
    expect(await f({ lastLoginFrom: new Date("2026-02-01"), lastLoginTo: new Date("2026-04-01") })).toEqual([
      plain.id,
    ]);
    expect(await f({ lastLoginTo: new Date("2026-02-01") })).toEqual([]);
    const created = plain.createdAt;
    expect(await f({ createdFrom: created, createdTo: created })).toEqual([plain.id]);
    expect(await f({ userTypes: ["client"], accessLevels: ["limited"] })).toEqual([obrien.id]);
  });

  it("refuses a bad filter with the schema's message", async () => {
    await expect(searchUsers(db, { filter: { userTypes: ["emperor"] } })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(
      searchUsers(db, { filter: { createdFrom: "2026-02-02", createdTo: "2026-02-01" } }),
    ).rejects.toMatchObject({ message: "The start of a range must not be after its end" });
    await expect(searchUsers(db, { first: 201 })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

/** Each sort in each direction. */
const EVERY_SORT: UserSort[] = [
  { by: "createdAt", direction: "desc" },
  { by: "createdAt", direction: "asc" },
  { by: "name", direction: "asc" },
  { by: "name", direction: "desc" },
  { by: "lastLoginAt", direction: "desc" },
  { by: "lastLoginAt", direction: "asc" },
];

describe("sorts and cursors", () => {
  it("sorts by name case-insensitively, by created and by last login (never-signed-in last), both ways", async () => {
    const byName = await all({ q: tag }, { by: "name", direction: "asc" }, 2);
    expect(byName.map((u) => u.firstName)).toEqual(["Zoë", "Ada", "Seán", "mcDONALD"]);
    const byNameDesc = await all({ q: tag }, { by: "name", direction: "desc" }, 2);
    expect(ids(byNameDesc)).toEqual(ids(byName).reverse());
    const created = await all({ q: tag }, { by: "createdAt", direction: "asc" }, 2);
    expect(ids(created)).toEqual(ids(mine));
    for (const direction of ["asc", "desc"] as const) {
      const byLogin = await all({ q: tag }, { by: "lastLoginAt", direction }, 1);
      expect(byLogin[0]?.id).toBe(plain.id);
      const rest = ids(mine.filter((u) => u.id !== plain.id));
      expect(ids(byLogin).slice(1)).toEqual(direction === "asc" ? rest : rest.reverse());
    }
  });

  it.each(EVERY_SORT)("keeps pages by %o stable while users are inserted between requests", async (sort) => {
    const sub = `pg${uniqueSuffix()}`;
    const before: User[] = [];
    for (let i = 0; i < 9; i += 1) {
      before.push(
        await createUser(db, {
          companyName: sub,
          lastName: `Page${String(i).padStart(2, "0")}`,
          lastLoginAt: i % 2 ? new Date(Date.now() - i * 60_000) : null,
        }),
      );
    }
    {
      const seen: number[] = [];
      let after: string | null = null;
      for (let n = 0; n < 100; n += 1) {
        const page = await directoryPage(db, { filter: { q: sub }, sort, first: 2, after });
        seen.push(...ids(page.nodes));
        // someone registers between two page requests, with names and times all over the order
        await createUser(db, {
          companyName: sub,
          lastName: `Page${String(n).padStart(2, "0")}x`,
          lastLoginAt: n % 2 ? new Date(Date.now() - n * 30_000) : null,
        });
        if (!page.hasNextPage) break;
        after = page.endCursor;
      }
      const existing = new Set(ids(before));
      const seenExisting = seen.filter((id) => existing.has(id));
      expect(seenExisting.sort()).toEqual(ids(before).sort());
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it.each(EVERY_SORT)(
    "reads the same pages by %o through the matches as by walking the sort's index",
    async (sort) => {
      for (const filter of [{ q: tag }, { q: tag, userTypes: ["client" as const] }, { q: tag.slice(0, 6) }]) {
        const walked = await all(filter, sort, 2, "walk");
        const read = await all(filter, sort, 2, "matches");
        expect(ids(read)).toEqual(ids(walked));
        expect(walked.length).toBeGreaterThan(0);
      }
    },
  );

  it("reads the matches when few users match the text, and walks the sort's index when many do", () => {
    // the estimates of a million users (bench/userDirectory.bench.ts) and the page of 51 rows
    const million = { total: 1_000_000, limit: 51 };
    // an email's first twelve characters, 2,000 users: walking would test ~25,000 rows
    expect(readingFor({ ...million, textRows: 2000, matching: 2000, byName: false })).toBe("matches");
    // a part of a last name, 40,000 users: a page fills after ~1,300 rows
    expect(readingFor({ ...million, textRows: 40_000, matching: 40_000, byName: false })).toBe("walk");
    // the same text and filters that leave 7,000: still a short walk
    expect(readingFor({ ...million, textRows: 40_000, matching: 7000, byName: false })).toBe("walk");
    // by name, the matches share a stretch of the alphabet: read them unless they are very many
    expect(readingFor({ ...million, textRows: 40_000, matching: 40_000, byName: true })).toBe("matches");
    expect(readingFor({ ...million, textRows: 400_000, matching: 400_000, byName: true })).toBe("walk");
  });

  it("refuses a cursor that is not one, or was made for another sort, with VALIDATION_FAILED", async () => {
    const page = await directoryPage(db, {
      filter: { q: tag },
      sort: { by: "name", direction: "asc" },
      first: 1,
    });
    for (const after of ["garbage", "", Buffer.from('["name","asc",[1],1]').toString("base64url")]) {
      await expect(searchUsers(db, { filter: { q: tag }, after: after || "%%" })).rejects.toBeInstanceOf(
        AppError,
      );
    }
    await expect(
      searchUsers(db, { filter: { q: tag }, sort: { by: "createdAt" }, after: page.endCursor }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

describe("facets", () => {
  it("count the filtered users per value, each facet adding up to the total", async () => {
    for (const filter of [
      { q: tag },
      { q: tag, userTypes: ["client"] },
      { q: tag, emailVerified: true },
      {},
    ] satisfies UserFilter[]) {
      const facets = await directoryFacets(db, filter);
      const total = (await all(filter, undefined, 200)).length;
      expect(facets.total).toBe(total);
      for (const list of [facets.userTypes, facets.userStatuses, facets.accessLevels]) {
        expect(list.reduce((s, c) => s + c.count, 0)).toBe(total);
      }
      expect(facets.emailVerified.yes + facets.emailVerified.no).toBe(total);
      expect(facets.esrtSynced.yes + facets.esrtSynced.no).toBe(total);
    }
    const facets = await directoryFacets(db, { q: tag });
    expect(facets.userTypes).toEqual([
      { value: "user", count: 0 },
      { value: "prospect", count: 2 },
      { value: "client", count: 2 },
      { value: "mainAdmin", count: 0 },
      { value: "userAdmin", count: 0 },
    ]);
    expect(facets.userStatuses).toContainEqual({ value: "inactive", count: 1 });
    expect(facets.emailVerified).toEqual({ yes: 3, no: 1 });
    expect(facets.esrtSynced).toEqual({ yes: 1, no: 3 });
  });
});

describe("export batches", () => {
  it("read every matching user once, in order, a batch at a time", async () => {
    const batches: number[][] = [];
    for await (const batch of exportBatches(db, {
      filter: { q: tag },
      sort: { by: "name", direction: "asc" },
      batchSize: 3,
    })) {
      batches.push(ids(batch));
    }
    expect(batches.map((b) => b.length)).toEqual([3, 1]);
    expect(batches.flat()).toEqual([zoe.id, plain.id, obrien.id, mixed.id]);
  });
});
