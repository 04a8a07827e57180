import { DOCUMENT_SORTS } from "@schema/validation/document";
import type { Db } from "@services/shared/db";
import { countingModelCalls, testDb } from "@services/shared/testing/db";
import { createDocument, createUser } from "@services/shared/testing/factories";
import type { DocumentActor } from "./actor";
import { documentClients } from "./documentClients";
import { getDocument } from "./getDocument";
import { encodeCursor, LIST_MESSAGES, listDocuments } from "./listDocuments";
import { clientActor, teamActor } from "./testing";

let db: Db;
let team: DocumentActor;
beforeAll(async () => {
  db = await testDb();
  const admin = await createUser(db, { userType: "userAdmin" });
  team = teamActor(admin.id, "Team Member");
});

async function client(): Promise<{ id: number; actor: DocumentActor }> {
  const user = await createUser(db, { userType: "client" });
  return { id: user.id, actor: clientActor(user.id, "C C") };
}

/** Every page of a list, following endCursor. */
async function allPages(props: Parameters<typeof listDocuments>[0] & { filter: Record<string, unknown> }) {
  const ids: number[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await listDocuments({ ...props, filter: { ...props.filter, after } });
    ids.push(...page.nodes.map((n) => n.id));
    if (!page.hasNextPage) {
      expect(page.endCursor === null || page.nodes.length > 0).toBe(true);
      return { ids, pages: pages + 1 };
    }
    after = page.endCursor ?? undefined;
  }
  throw new Error("more than 50 pages");
}

describe("listDocuments paging", () => {
  it("covers every row exactly once across pages, in order, with ties on createdAt and title", async () => {
    const owner = await client();
    const tie = new Date("2030-05-05T10:00:00.000Z");
    const made = [];
    for (let i = 0; i < 11; i++) {
      made.push(
        await createDocument(db, {
          userId: owner.id,
          // five share one instant, the rest a second apart; titles repeat too
          createdAt: i < 5 ? tie : new Date(tie.getTime() + i * 1000),
          title: i % 3 === 0 ? "Same title" : `Title ${String.fromCharCode(75 - i)}`,
        }),
      );
    }
    for (const sort of DOCUMENT_SORTS) {
      const everything = await listDocuments({
        db,
        actor: team,
        scope: "all",
        filter: { userId: owner.id, sort, first: 100 },
      });
      expect(everything.nodes).toHaveLength(11);
      for (const first of [1, 2, 3, 4]) {
        const { ids, pages } = await allPages({
          db,
          actor: team,
          scope: "all",
          filter: { userId: owner.id, sort, first },
        });
        expect(ids).toEqual(everything.nodes.map((n) => n.id));
        expect(pages).toBe(Math.ceil(11 / first));
      }
      const keys = everything.nodes.map((n) => (sort.startsWith("title") ? n.title : n.createdAt));
      const sorted = [...keys].sort((a, b) => a.localeCompare(b, "en"));
      if (sort.startsWith("createdAt"))
        expect(keys).toEqual(sort.endsWith("desc") ? sorted.reverse() : sorted);
    }
    // newest first by default, id breaking the tie
    const first = await listDocuments({ db, actor: owner.actor, scope: "mine", filter: { first: 11 } });
    const tied = made
      .slice(0, 5)
      .map((d) => d.id)
      .sort((a, b) => b - a);
    expect(first.nodes.slice(-5).map((n) => n.id)).toEqual(tied);
    expect(first).toMatchObject({ hasNextPage: false, totalCount: 11 });
    const ten = await listDocuments({ db, actor: owner.actor, scope: "mine", filter: { first: 10 } });
    expect(ten).toMatchObject({ hasNextPage: true, totalCount: 11 });
  });

  it("refuses a cursor that is not one (garbage, another sort's, out of range) with 400", async () => {
    const owner = await client();
    const doc = await createDocument(db, { userId: owner.id });
    const other = encodeCursor("title_asc", doc);
    const huge = Buffer.from(
      JSON.stringify(["createdAt_desc", doc.createdAt.toISOString(), 2 ** 40]),
    ).toString("base64url");
    const nul = Buffer.from(JSON.stringify(["title_asc", "a\u0000", 1])).toString("base64url");
    const notDate = Buffer.from(JSON.stringify(["createdAt_desc", "yesterday", 1])).toString("base64url");
    for (const [after, sort] of [
      ["%%%", "createdAt_desc"],
      ["bm90IGpzb24", "createdAt_desc"],
      [other, "createdAt_desc"],
      [huge, "createdAt_desc"],
      [nul, "title_asc"],
      [notDate, "createdAt_desc"],
    ]) {
      await expect(
        listDocuments({ db, actor: owner.actor, scope: "mine", filter: { after, sort } }),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED", message: LIST_MESSAGES.badCursor });
    }
    for (const first of [0, 101, 2.5]) {
      await expect(
        listDocuments({ db, actor: owner.actor, scope: "mine", filter: { first } }),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    }
    await expect(
      listDocuments({ db, actor: owner.actor, scope: "mine", filter: { sort: "size_desc" } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

describe("listDocuments filters", () => {
  it("counts per status for the filter without its status; totalCount for the filter", async () => {
    const owner = await client();
    for (const status of ["pending", "pending", "approved", "rejected", "rejected", "rejected"] as const) {
      await createDocument(db, { userId: owner.id, status });
    }
    await createDocument(db, { userId: owner.id, status: "approved", fileType: "png", fileName: "x.png" });
    const rejected = await listDocuments({
      db,
      actor: team,
      scope: "all",
      filter: { userId: owner.id, status: "rejected", fileType: "PDF" },
    });
    expect(rejected.counts).toEqual({ pending: 2, approved: 1, rejected: 3, total: 6 });
    expect(rejected.totalCount).toBe(3);
    expect(rejected.nodes.every((n) => n.status === "rejected")).toBe(true);
    const mine = await listDocuments({ db, actor: owner.actor, scope: "mine", filter: {} });
    expect(mine.counts).toEqual({ pending: 2, approved: 2, rejected: 3, total: 7 });
    expect(mine.totalCount).toBe(7);
  });

  it("searches title and file name by case-insensitive parts of words, % and _ taken literally", async () => {
    const owner = await client();
    const invoice = await createDocument(db, {
      userId: owner.id,
      title: "Quarterly Invoice 2024",
      fileName: "q.pdf",
    });
    const scan = await createDocument(db, { userId: owner.id, title: "Other", fileName: "Scan_FINAL.pdf" });
    const percent = await createDocument(db, {
      userId: owner.id,
      title: "Growth 50% plan",
      fileName: "g.pdf",
    });
    await createDocument(db, { userId: owner.id, title: "Growth 500 plan", fileName: "h.pdf" });
    const search = async (text: string) =>
      (await listDocuments({ db, actor: owner.actor, scope: "mine", filter: { search: text } })).nodes.map(
        (n) => n.id,
      );
    expect(await search("VOIC")).toEqual([invoice.id]);
    expect(await search("  quarter   2024 ")).toEqual([invoice.id]);
    expect(await search("can_fin")).toEqual([scan.id]);
    expect(await search("50%")).toEqual([percent.id]);
    expect(await search("_")).toEqual([scan.id]);
    expect(await search("quarterly scan")).toEqual([]);
    const counted = await listDocuments({
      db,
      actor: owner.actor,
      scope: "mine",
      filter: { search: "growth" },
    });
    expect(counted.totalCount).toBe(2);
  });

  it("filters by file type, creation range, fromTeam and client", async () => {
    const owner = await client();
    const other = await client();
    const at = (iso: string) => new Date(iso);
    const old = await createDocument(db, { userId: owner.id, createdAt: at("2029-01-01T00:00:00Z") });
    const mid = await createDocument(db, {
      userId: owner.id,
      createdAt: at("2029-02-01T00:00:00Z"),
      fileType: "xlsx",
      fileName: "book.xlsx",
    });
    const report = await createDocument(db, {
      userId: owner.id,
      createdAt: at("2029-03-01T00:00:00Z"),
      fromTeam: true,
      status: "approved",
      uploadedByName: "Team Member",
      uploadedById: team.id,
    });
    await createDocument(db, { userId: other.id, createdAt: at("2029-02-01T00:00:00Z") });
    const ids = async (filter: Record<string, unknown>, scope: "mine" | "all" = "mine") =>
      (await listDocuments({ db, actor: scope === "mine" ? owner.actor : team, scope, filter })).nodes.map(
        (n) => n.id,
      );
    expect(await ids({ fileType: "xlsx" })).toEqual([mid.id]);
    expect(await ids({ from: "2029-02-01T00:00:00Z", to: "2029-03-01T00:00:00Z" })).toEqual([mid.id]);
    expect(await ids({ to: "2029-02-01T00:00:00.000+00:00" })).toEqual([old.id]);
    expect(await ids({ fromTeam: true })).toEqual([report.id]);
    expect(await ids({ fromTeam: false, sort: "createdAt_asc" })).toEqual([old.id, mid.id]);
    expect(await ids({ userId: owner.id, fromTeam: false }, "all")).toEqual([mid.id, old.id]);
    await expect(ids({ from: "last week" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

describe("who lists what", () => {
  it("keeps a client's list to their own documents and refuses other lists", async () => {
    const owner = await client();
    const other = await client();
    const mine = await createDocument(db, { userId: owner.id });
    await createDocument(db, { userId: other.id });
    const page = await listDocuments({ db, actor: owner.actor, scope: "mine" });
    expect(page.nodes.map((n) => n.id)).toEqual([mine.id]);
    expect(page.nodes[0]).toMatchObject({
      owner: { id: owner.id },
      fileUrl: `/api/documents/${mine.id}/download`,
      previewUrl: `/api/documents/${mine.id}/preview`,
      fileSize: 1234,
      versions: [
        { version: 1, downloadUrl: `/api/documents/${mine.id}/versions/1/download`, fileSize: 1234 },
      ],
    });
    await expect(
      listDocuments({ db, actor: owner.actor, scope: "mine", filter: { userId: other.id } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", message: LIST_MESSAGES.userIdMine });
    await expect(listDocuments({ db, actor: owner.actor, scope: "all" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: LIST_MESSAGES.forbiddenAll,
    });
    const prospect: DocumentActor = {
      id: other.id,
      name: "P",
      isClient: false,
      readAll: false,
      approve: false,
    };
    await expect(listDocuments({ db, actor: prospect, scope: "mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: LIST_MESSAGES.forbiddenMine,
    });
  });

  it("shows one document to its owner and read:all_documents only, and no preview for a spreadsheet", async () => {
    const owner = await client();
    const other = await client();
    const sheet = await createDocument(db, {
      userId: owner.id,
      fileType: "xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      fileSize: 5_000_000_000,
    });
    expect(await getDocument({ db, actor: owner.actor, documentId: sheet.id })).toMatchObject({
      id: sheet.id,
      previewUrl: null,
      fileSize: 5_000_000_000,
    });
    expect(await getDocument({ db, actor: team, documentId: sheet.id })).toMatchObject({ id: sheet.id });
    expect(await getDocument({ db, actor: other.actor, documentId: sheet.id })).toBeNull();
    expect(
      await getDocument({ db, actor: { ...owner.actor, isClient: false }, documentId: sheet.id }),
    ).toBeNull();
    expect(await getDocument({ db, actor: team, documentId: 2 ** 40 })).toBeNull();
  });
});

describe("documentClients", () => {
  it("finds active clients by parts of name, email, username or company, for reviewers only", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const ada = await createUser(db, {
      userType: "client",
      firstName: "Ada",
      lastName: `Lovelace${tag}`,
      companyName: "Engines Ltd",
    });
    const bob = await createUser(db, {
      userType: "client",
      lastName: `Builder${tag}`,
      email: `bob.${tag}@site.test`,
    });
    await createUser(db, { userType: "prospect", lastName: `Prospect${tag}` });
    await createUser(db, { userType: "client", lastName: `Gone${tag}`, userStatus: "archived" });
    const names = async (search: string, first?: number) =>
      (await documentClients({ db, actor: team, search, first })).map((c) => c.id);
    expect(await names(tag.toUpperCase())).toEqual([bob.id, ada.id]);
    expect(await names(`ENGINE ${tag}`)).toEqual([ada.id]);
    expect(await names(`bob.${tag}`)).toEqual([bob.id]);
    expect(await names(tag, 1)).toEqual([bob.id]);
    const [found] = await documentClients({ db, actor: team, search: `ada lovelace${tag}` });
    expect(found).toEqual({
      id: ada.id,
      username: ada.username,
      firstName: "Ada",
      lastName: `Lovelace${tag}`,
      email: ada.email,
      companyName: "Engines Ltd",
    });
    await expect(
      documentClients({ db, actor: { ...team, approve: false }, search: tag }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(documentClients({ db, actor: team, first: 0 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });
});

describe("each document's owner", () => {
  it("comes from one read of the user service per page, never one per document", async () => {
    const ann = await createUser(db, { userType: "client", firstName: "Ann", companyName: "Lee & Co" });
    const bob = await createUser(db, { userType: "client", firstName: "Bob" });
    const title = `Owners ${Date.now()}`;
    for (const owner of [ann, bob, ann]) await createDocument(db, { userId: owner.id, title });
    const ownerOf = (u: typeof ann) => ({
      id: u.id,
      username: u.username,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      companyName: u.companyName,
    });
    const counting = countingModelCalls(db, "user");
    const page = await listDocuments({
      db: counting.db,
      actor: team,
      scope: "all",
      filter: { search: title, sort: "createdAt_asc" },
    });
    expect(page.nodes.map((d) => d.owner)).toEqual([ownerOf(ann), ownerOf(bob), ownerOf(ann)]);
    expect(counting.calls).toEqual(["findMany"]);
    const one = await getDocument({ db, actor: team, documentId: page.nodes[1]?.id ?? 0 });
    expect(one?.owner).toEqual(ownerOf(bob));
  });
});
