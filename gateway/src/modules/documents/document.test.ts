import { identityAppFixture } from "@gateway/testing/fixtures";
import { leakedSecrets, sessionCookieOf } from "@gateway/testing/identityHarness";
import { DOCUMENT_MESSAGES } from "@schema/validation/document";
import type { User } from "@services/shared/generated/prisma/client";
import { createDocument, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import request from "supertest";

type Role = "owner" | "otherClient" | "prospect" | "userAdmin" | "mainAdmin" | "signedOut";
const ROLES: Role[] = ["owner", "otherClient", "prospect", "userAdmin", "mainAdmin", "signedOut"];
const users = {} as Record<Exclude<Role, "signedOut">, User>;
const cookies = {} as Record<Role, string>;

async function signIn(user: User): Promise<string> {
  const res = await request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD });
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`could not sign ${user.username} in: ${res.status} ${res.text}`);
  return cookie;
}

const h = identityAppFixture();
beforeAll(async () => {
  users.owner = await createUser(h.db, { userType: "client", firstName: "Olive", lastName: "Owner" });
  users.otherClient = await createUser(h.db, { userType: "client" });
  users.prospect = await createUser(h.db, { userType: "prospect" });
  users.userAdmin = await createUser(h.db, { userType: "userAdmin", firstName: "Uma", lastName: "Admin" });
  users.mainAdmin = await createUser(h.db, { userType: "mainAdmin", firstName: "Max", lastName: "Main" });
  for (const role of ROLES) cookies[role] = role === "signedOut" ? "" : await signIn(users[role]);
});

interface Answer {
  status: number;
  data: Record<string, unknown> | null;
  errors: { message?: string; extensions?: { code?: string } }[] | undefined;
}

async function gql(query: string, variables: Record<string, unknown>, role: Role): Promise<Answer> {
  const res = await request(h.app).post("/graphql").set("Cookie", cookies[role]).send({ query, variables });
  h.bodies.push(res.text);
  return { status: res.status, data: res.body.data ?? null, errors: res.body.errors };
}

/** What a role got: "ok", null (a null answer), or the error code (top-level or typed AppError). */
function outcome(answer: Answer, field: string): string | null {
  if (answer.errors?.length) return answer.errors[0]?.extensions?.code ?? "ERROR";
  const value = answer.data?.[field] as Record<string, unknown> | null | undefined;
  if (value === null || value === undefined) return null;
  if (value.__typename === "AppError") return String(value.code);
  return "ok";
}

const LIST = `query($filter: DocumentFilterInput) {
  myDocuments(filter: $filter) { nodes { id } totalCount counts { pending approved rejected total } }
}`;
const ALL = `query($filter: DocumentFilterInput) {
  documents(filter: $filter) { nodes { id owner { id } } totalCount endCursor hasNextPage }
}`;
const ONE = `query($id: Int!) {
  document(id: $id) {
    id userId title description fileName fileType fileSize mimeType fileUrl previewUrl status version fromTeam
    uploadedByName approvedBy approvedAt rejectedBy rejectedAt rejectionReason downloadCount createdAt updatedAt
    owner { id username firstName lastName email companyName }
    history { version action actorName reason createdAt }
    versions { version fileName fileType fileSize createdAt downloadUrl }
  }
}`;
const CLIENTS = `query($search: String) { documentClients(search: $search) { id username email } }`;
const APPROVE = `mutation($id: Int!) { approveDocument(id: $id) {
  __typename ... on AppError { code message } ... on MutationApproveDocumentSuccess { data { id status approvedBy } } } }`;
const REJECT = `mutation($id: Int!, $reason: String!) { rejectDocument(id: $id, reason: $reason) {
  __typename ... on AppError { code message } ... on MutationRejectDocumentSuccess { data { id status rejectionReason } } } }`;
const BULK = `mutation($ids: [Int!]!) { approveDocuments(ids: $ids) {
  __typename ... on AppError { code message }
  ... on MutationApproveDocumentsSuccess { data { approved { id status } failed { id message } } } } }`;
const DELETE = `mutation($id: Int!) { deleteDocument(id: $id) {
  __typename ... on AppError { code message } ... on MutationDeleteDocumentSuccess { data } } }`;

describe("document GraphQL permission matrix", () => {
  it("lists: own list for client-only users, the team's list for read:all_documents", async () => {
    const doc = await createDocument(h.db, { userId: users.owner.id });
    const mine: Record<Role, string | null> = {} as Record<Role, string | null>;
    const all: Record<Role, string | null> = {} as Record<Role, string | null>;
    for (const role of ROLES) {
      mine[role] = outcome(await gql(LIST, {}, role), "myDocuments");
      all[role] = outcome(await gql(ALL, { filter: { userId: users.owner.id } }, role), "documents");
    }
    expect(mine).toEqual({
      owner: "ok",
      otherClient: "ok",
      prospect: "FORBIDDEN",
      userAdmin: "ok",
      mainAdmin: "ok",
      signedOut: "UNAUTHENTICATED",
    });
    expect(all).toEqual({
      owner: "FORBIDDEN",
      otherClient: "FORBIDDEN",
      prospect: "FORBIDDEN",
      userAdmin: "ok",
      mainAdmin: "ok",
      signedOut: "UNAUTHENTICATED",
    });
    const ownList = await gql(LIST, {}, "owner");
    expect(ownList.data?.myDocuments).toMatchObject({ nodes: [{ id: doc.id }], totalCount: 1 });
    const otherList = await gql(LIST, {}, "otherClient");
    expect(otherList.data?.myDocuments).toMatchObject({ nodes: [], totalCount: 0 });
    const filtered = await gql(
      LIST,
      { filter: { from: doc.createdAt.toISOString(), status: "pending", sort: "title_asc", first: 1 } },
      "owner",
    );
    expect(filtered.data?.myDocuments).toMatchObject({ nodes: [{ id: doc.id }], totalCount: 1 });
    const later = await gql(
      LIST,
      { filter: { from: new Date(doc.createdAt.getTime() + 1).toISOString() } },
      "owner",
    );
    expect(later.data?.myDocuments).toMatchObject({ nodes: [], totalCount: 0 });
    const teamList = await gql(ALL, { filter: { userId: users.owner.id } }, "userAdmin");
    expect(teamList.data?.documents).toMatchObject({
      nodes: [{ id: doc.id, owner: { id: users.owner.id } }],
      totalCount: 1,
    });
  });

  it("one document: the owner and read:all_documents see it, another client gets null", async () => {
    const doc = await createDocument(h.db, { userId: users.owner.id, fileSize: 3_000_000_000 });
    const seen: Record<Role, string | null> = {} as Record<Role, string | null>;
    for (const role of ROLES) seen[role] = outcome(await gql(ONE, { id: doc.id }, role), "document");
    expect(seen).toEqual({
      owner: "ok",
      otherClient: null,
      prospect: "FORBIDDEN",
      userAdmin: "ok",
      mainAdmin: "ok",
      signedOut: "UNAUTHENTICATED",
    });
    const answer = await gql(ONE, { id: doc.id }, "owner");
    expect(answer.data?.document).toMatchObject({
      id: doc.id,
      userId: users.owner.id,
      fileSize: 3_000_000_000,
      mimeType: "application/pdf",
      fileUrl: `/api/documents/${doc.id}/download`,
      previewUrl: `/api/documents/${doc.id}/preview`,
      status: "pending",
      version: 1,
      fromTeam: false,
      downloadCount: 0,
      owner: { id: users.owner.id, firstName: "Olive", lastName: "Owner" },
      history: [{ version: 1, action: "uploaded", reason: null }],
      versions: [
        { version: 1, fileSize: 3_000_000_000, downloadUrl: `/api/documents/${doc.id}/versions/1/download` },
      ],
    });
    expect((await gql(ONE, { id: 2_147_483_000 }, "mainAdmin")).data).toEqual({ document: null });
    expect(outcome(await gql(ONE, { id: 0 }, "mainAdmin"), "document")).toBe("VALIDATION_FAILED");
  });

  it("review: approve:documents only; the rest are refused and nothing changes", async () => {
    const doc = await createDocument(h.db, { userId: users.owner.id });
    const refused: Role[] = ["owner", "otherClient", "prospect", "signedOut"];
    for (const role of refused) {
      const expected = role === "signedOut" ? "UNAUTHENTICATED" : "FORBIDDEN";
      expect([role, outcome(await gql(APPROVE, { id: doc.id }, role), "approveDocument")]).toEqual([
        role,
        expected,
      ]);
      expect([role, outcome(await gql(REJECT, { id: doc.id, reason: "x" }, role), "rejectDocument")]).toEqual(
        [role, expected],
      );
      expect([role, outcome(await gql(BULK, { ids: [doc.id] }, role), "approveDocuments")]).toEqual([
        role,
        expected,
      ]);
      expect([role, outcome(await gql(CLIENTS, {}, role), "documentClients")]).toEqual([role, expected]);
    }
    expect((await h.db.prisma.document.findUniqueOrThrow({ where: { id: doc.id } })).status).toBe("pending");
    expect(
      outcome(await gql(CLIENTS, { search: users.owner.username }, "userAdmin"), "documentClients"),
    ).toBe("ok");
    const clients = await gql(CLIENTS, { search: users.owner.username }, "mainAdmin");
    expect(clients.data?.documentClients).toEqual([
      { id: users.owner.id, username: users.owner.username, email: users.owner.email },
    ]);

    const approved = await gql(APPROVE, { id: doc.id }, "userAdmin");
    expect(approved.data?.approveDocument).toEqual({
      __typename: "MutationApproveDocumentSuccess",
      data: { id: doc.id, status: "approved", approvedBy: "Uma Admin" },
    });
    const again = await gql(APPROVE, { id: doc.id }, "mainAdmin");
    expect(again.data?.approveDocument).toEqual({
      __typename: "AppError",
      code: "CONFLICT",
      message: "This document has already been approved",
    });
  });

  it("reject needs a reason; bulk approve reports each failure", async () => {
    const doc = await createDocument(h.db, { userId: users.owner.id });
    const other = await createDocument(h.db, { userId: users.owner.id });
    const blank = await gql(REJECT, { id: doc.id, reason: "   " }, "mainAdmin");
    expect(blank.data?.rejectDocument).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: DOCUMENT_MESSAGES.reasonRequired,
    });
    const rejected = await gql(REJECT, { id: doc.id, reason: "Please send all pages" }, "mainAdmin");
    expect(rejected.data?.rejectDocument).toMatchObject({
      data: { id: doc.id, status: "rejected", rejectionReason: "Please send all pages" },
    });
    const bulk = await gql(BULK, { ids: [other.id, doc.id] }, "userAdmin");
    expect(bulk.data?.approveDocuments).toEqual({
      __typename: "MutationApproveDocumentsSuccess",
      data: {
        approved: [{ id: other.id, status: "approved" }],
        failed: [{ id: doc.id, message: "This document has already been rejected" }],
      },
    });
    const none = await gql(BULK, { ids: [] }, "userAdmin");
    expect(none.data?.approveDocuments).toMatchObject({ __typename: "AppError", code: "VALIDATION_FAILED" });
    const bad = await gql(APPROVE, { id: -4 }, "userAdmin");
    expect(bad.data?.approveDocument).toMatchObject({ __typename: "AppError", code: "VALIDATION_FAILED" });
  });

  it("delete: only the owner, of a pending or rejected document", async () => {
    const doc = await createDocument(h.db, { userId: users.owner.id });
    const got: Record<Role, string | null> = {} as Record<Role, string | null>;
    for (const role of ROLES.filter((r) => r !== "owner")) {
      got[role] = outcome(await gql(DELETE, { id: doc.id }, role), "deleteDocument");
    }
    expect(got).toEqual({
      otherClient: "NOT_FOUND",
      prospect: "FORBIDDEN",
      userAdmin: "FORBIDDEN",
      mainAdmin: "FORBIDDEN",
      signedOut: "UNAUTHENTICATED",
    });
    expect(await h.db.prisma.document.count({ where: { id: doc.id } })).toBe(1);
    const deleted = await gql(DELETE, { id: doc.id }, "owner");
    expect(deleted.data?.deleteDocument).toEqual({ __typename: "MutationDeleteDocumentSuccess", data: true });
    expect(await h.db.prisma.document.count({ where: { id: doc.id } })).toBe(0);
    const approved = await createDocument(h.db, { userId: users.owner.id, status: "approved" });
    expect((await gql(DELETE, { id: approved.id }, "owner")).data?.deleteDocument).toEqual({
      __typename: "AppError",
      code: "CONFLICT",
      message: "An approved document cannot be deleted",
    });
  });

  it("answers bad filters with 4xx messages and leaks nothing", async () => {
    const bad = await gql(LIST, { filter: { after: "not-a-cursor" } }, "owner");
    expect(bad.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const first = await gql(LIST, { filter: { first: 1000 } }, "owner");
    expect(first.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const mine = await gql(LIST, { filter: { userId: users.otherClient.id } }, "owner");
    expect(mine.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const nul = await gql(ALL, { filter: { search: "a\u0000b" } }, "mainAdmin");
    expect(nul.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });
});
