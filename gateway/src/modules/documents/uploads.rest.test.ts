import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { filesServerFixture } from "@gateway/testing/fixtures";
import {
  encodeMetadata,
  rawRequest,
  sha256,
  TUS_HEADERS,
  type TusOutcome,
  tusPatch,
  tusRequest,
  tusUpload,
} from "@gateway/testing/uploadHarness";
import {
  DEFAULT_ALLOWED_FILE_TYPES,
  DEFAULT_MAX_FILE_SIZE,
  DOCUMENT_MESSAGES,
  fileTooLargeMessage,
  typeNotAllowedMessage,
} from "@schema/validation/document";
import { fixtures } from "@services/document/testing";
import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { UNAUTHORIZED_MESSAGE } from "../identity/session";
import { CLIENT_ONLY_MESSAGE } from "./uploads.rest";

// tus uploads end to end: tus-js-client (and raw HTTP where a client must misbehave) against the
// real app on a socket, the run's database and a data directory of the test's own.

const h = filesServerFixture();

/** Expects the upload `id` to have neither its row nor its staged bytes left. */
async function expectForgotten(id: string): Promise<void> {
  expect(await h.db.prisma.upload.findUnique({ where: { id } })).toBeNull();
  expect(stagingFiles()).not.toContain(id);
}

/** UTF-8 text of `bytes` bytes (a valid .txt). */
function text(bytes: number, seed = "line"): Buffer {
  const line = `${seed} of a plain text document, ünïcödé included.\n`;
  return Buffer.from(line.repeat(Math.ceil(bytes / Buffer.byteLength(line)))).subarray(0, bytes);
}

async function client(): Promise<{ user: User; cookie: string }> {
  const user = await createUser(h.db, { userType: "client" });
  return { user, cookie: await h.signIn(user.username) };
}

function stagingFiles(): string[] {
  const dir = path.join(h.dataDir, "uploads");
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** POST /api/uploads with raw headers (nothing else sent). */
function create(cookie: string, headers: Record<string, string>) {
  return rawRequest(`${h.url}/api/uploads`, {
    method: "POST",
    headers: { ...TUS_HEADERS, ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
}

describe("creating an upload", () => {
  it("answers 401 signed out and 403 'Access Restricted' to a prospect, with nothing recorded", async () => {
    const signedOut = await create("", {
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A" }),
    });
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.toString()).toBe(UNAUTHORIZED_MESSAGE);
    expect(signedOut.headers["content-type"]).toMatch(/^text\/plain/);

    const prospect = await createUser(h.db, { userType: "prospect" });
    const refused = await create(await h.signIn(prospect.username), {
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A" }),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toBe(CLIENT_ONLY_MESSAGE);
    expect(await h.db.prisma.upload.count({ where: { userId: prospect.id } })).toBe(0);
  });

  it("refuses a cross-site creation (403) like every other mutation", async () => {
    const { cookie } = await client();
    const res = await create(cookie, {
      Origin: "https://evil.example",
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A" }),
    });
    expect(res.status).toBe(403);
    expect(res.body.toString()).toBe("Cross-site request refused");
  });

  it("refuses a file over maxFileSize (413) and a type not allowed (415) before any byte, with the form's messages", async () => {
    const { user, cookie } = await client();
    const declared = await create(cookie, {
      "Upload-Length": String(DEFAULT_MAX_FILE_SIZE + 1),
      "Upload-Metadata": encodeMetadata({ filename: "big.txt", title: "Big" }),
    });
    expect(declared.status).toBe(413);
    expect(declared.body.toString()).toBe(fileTooLargeMessage(DEFAULT_MAX_FILE_SIZE));

    const exe = await tusUpload({ server: h, cookie, data: text(100), fileName: "setup.exe" });
    expect(exe.status).toBe(415);
    expect(exe.body).toBe(typeNotAllowedMessage("exe", DEFAULT_ALLOWED_FILE_TYPES));
    const none = await tusUpload({ server: h, cookie, data: text(100), fileName: "README" });
    expect(none.status).toBe(415);
    expect(none.body).toBe(typeNotAllowedMessage(null, DEFAULT_ALLOWED_FILE_TYPES));
    expect(await h.db.prisma.upload.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses a deferred length, an empty file and bad metadata (400, the schema's message)", async () => {
    const { cookie } = await client();
    const deferred = await create(cookie, {
      "Upload-Defer-Length": "1",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A" }),
    });
    expect(deferred.status).toBe(400);
    expect(deferred.body.toString()).toMatch(/Upload-Length/);

    const empty = await create(cookie, {
      "Upload-Length": "0",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A" }),
    });
    expect(empty.status).toBe(400);
    expect(empty.body.toString()).toBe(DOCUMENT_MESSAGES.emptyFile);

    const noTitle = await create(cookie, {
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "   " }),
    });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.toString()).toBe(DOCUMENT_MESSAGES.titleRequired);

    const malformed = await create(cookie, {
      "Upload-Length": "10",
      "Upload-Metadata": "title !!!notbase64",
    });
    expect(malformed.status).toBe(400);
    const notUtf8 = await create(cookie, {
      "Upload-Length": "10",
      "Upload-Metadata": `filename ${Buffer.from([0xff, 0xfe, 0x41]).toString("base64")},title ${Buffer.from("A").toString("base64")}`,
    });
    expect(notUtf8.status).toBe(400);
    const nul = await create(cookie, {
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ filename: "a.txt", title: "A\u0000B" }),
    });
    expect(nul.status).toBe(400);
  });

  it("answers upload URLs under /api/uploads with random ids, recording who may continue them", async () => {
    const { user, cookie } = await client();
    const res = await create(cookie, {
      "Upload-Length": "100",
      "Upload-Metadata": encodeMetadata({ filename: "notes.txt", title: "My notes", description: "Q3" }),
    });
    expect(res.status).toBe(201);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    const id = location.split("/").pop() ?? "";
    const row = await h.db.prisma.upload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      userId: user.id,
      purpose: "document",
      title: "My notes",
      description: "Q3",
      fileName: "notes.txt",
      fileType: "txt",
      declaredSize: 100n,
    });
    const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(Math.abs(ttl - 24 * 3600_000)).toBeLessThan(5000);
  });
});

describe("continuing an upload", () => {
  async function started(cookie: string, length = 1000): Promise<string> {
    const res = await create(cookie, {
      "Upload-Length": String(length),
      "Upload-Metadata": encodeMetadata({ filename: "part.txt", title: "Part" }),
    });
    expect(res.status).toBe(201);
    return `${h.url}${String(res.headers.location)}`;
  }

  it("lets only its creator HEAD, PATCH or DELETE it (404 for anyone else, 401 signed out)", async () => {
    const owner = await client();
    const other = await client();
    const url = await started(owner.cookie);
    const patch = (cookie: string) => tusPatch(url, cookie, [text(10)]);
    for (const cookie of [other.cookie]) {
      expect((await tusRequest("HEAD", url, cookie)).status).toBe(404);
      expect((await patch(cookie)).status).toBe(404);
      expect((await tusRequest("DELETE", url, cookie)).status).toBe(404);
    }
    expect((await rawRequest(url, { method: "HEAD", headers: TUS_HEADERS })).status).toBe(401);
    const head = await tusRequest("HEAD", url, owner.cookie);
    expect(head.status).toBe(200);
    expect(head.headers["upload-offset"]).toBe("0");
    expect((await patch(owner.cookie)).status).toBe(204);
    const id = url.split("/").pop() ?? "";
    expect(stagingFiles()).toContain(id);
    const del = await tusRequest("DELETE", url, owner.cookie);
    expect(del.status).toBe(204);
    await expectForgotten(id);
  });

  it("never serves staged bytes over GET", async () => {
    const owner = await client();
    const url = await started(owner.cookie);
    const res = await rawRequest(url, { method: "GET", headers: { Cookie: owner.cookie } });
    expect(res.status).toBe(404);
  });

  it("answers 404 for a malformed id and 410 for an upload past its 24 hours (and forgets it)", async () => {
    const owner = await client();
    expect(
      (
        await rawRequest(`${h.url}/api/uploads/..%2F..%2Fetc`, {
          method: "HEAD",
          headers: { ...TUS_HEADERS, Cookie: owner.cookie },
        })
      ).status,
    ).toBe(404);
    const url = await started(owner.cookie);
    const id = url.split("/").pop() ?? "";
    await h.db.prisma.upload.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await tusRequest("HEAD", url, owner.cookie);
    expect(res.status).toBe(410);
    await expectForgotten(id);
  });

  it("cuts off a client that sends more than it declared, and drops its upload", async () => {
    const owner = await client();
    // a declared body larger than the upload: refused before reading
    const first = await started(owner.cookie, 1000);
    const declaredTooMuch = await tusPatch(first, owner.cookie, [text(1500)], {
      framing: { "Content-Length": "1500" },
    });
    expect(declaredTooMuch.status).toBe(413);

    // a chunked body that keeps going past the declared length
    const url = await started(owner.cookie, 1000);
    const id = url.split("/").pop() ?? "";
    const lying = await tusPatch(url, owner.cookie, [text(600), text(600), text(600), text(600)], {
      framing: { "Transfer-Encoding": "chunked" },
    });
    expect(lying.status).toBe(413);
    await expectForgotten(id);
    const head = await tusRequest("HEAD", url, owner.cookie);
    expect(head.status).toBe(404);
  });
});

async function outboxOf(documentId: number): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const rows = await h.db.prisma.$queryRaw<
    { type: string; envelope: { payload: Record<string, unknown> } }[]
  >`
    SELECT type, envelope FROM outbox_events
    WHERE (envelope->'payload'->>'documentId')::int = ${documentId} ORDER BY "createdAt"`;
  return rows.map((r) => ({ type: r.type, payload: r.envelope.payload }));
}

interface Answer {
  document: {
    id: number;
    title: string;
    fileName: string;
    status: string;
    version: number;
    fromTeam: boolean;
  };
}

function answerOf(outcome: { ok: boolean; status: number; body: string }): Answer {
  expect({ ok: outcome.ok, status: outcome.status }).toEqual({ ok: true, status: 200 });
  return JSON.parse(outcome.body) as Answer;
}

async function download(
  cookie: string,
  documentId: number,
): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(`${h.url}/api/documents/${documentId}/download`, { headers: { Cookie: cookie } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** The file name an RFC 6266 Content-Disposition gives (filename* wins over filename). */
function dispositionName(header: string): string {
  expect(header).toMatch(/^attachment;/);
  const extended = /filename\*=UTF-8''([^;]+)/.exec(header);
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, "$1");
  return /filename=([^;]*)/.exec(header)?.[1] ?? "";
}

describe("finishing an upload", () => {
  it("makes a pending document from the recorded metadata: stored under a generated key, versioned, in history, document.uploaded emitted", async () => {
    const { user, cookie } = await client();
    const data = text(5000);
    const outcome = await tusUpload({
      server: h,
      cookie,
      data,
      fileName: "minutes.txt",
      title: "Board minutes",
      description: "March",
    });
    const { document } = answerOf(outcome);
    expect(document).toMatchObject({
      title: "Board minutes",
      fileName: "minutes.txt",
      status: "pending",
      version: 1,
      fromTeam: false,
    });
    const row = await h.db.prisma.document.findUniqueOrThrow({
      where: { id: document.id },
      include: { versions: true, history: true },
    });
    expect(row).toMatchObject({
      userId: user.id,
      description: "March",
      fileType: "txt",
      fileSize: 5000n,
      mimeType: "text/plain",
      sha256: sha256(data),
      fileUrl: `/api/documents/${document.id}/download`,
      uploadedByName: `${user.firstName} ${user.lastName}`,
      uploadedById: user.id,
      storageBackend: "local",
    });
    expect(row.storageKey).not.toContain("minutes");
    expect(row.versions).toEqual([
      expect.objectContaining({ version: 1, storageKey: row.storageKey, sha256: sha256(data) }),
    ]);
    expect(row.history).toEqual([
      expect.objectContaining({ version: 1, action: "uploaded", actorId: user.id }),
    ]);
    expect(await outboxOf(document.id)).toEqual([
      {
        type: "document.uploaded",
        payload: expect.objectContaining({
          documentId: document.id,
          userId: user.id,
          fromTeam: false,
          fileSize: 5000,
          version: 1,
        }),
      },
    ]);
    const id = outcome.uploadUrl?.split("/").pop() ?? "";
    expect(stagingFiles().filter((f) => f.startsWith(id))).toEqual([]);
    expect(await h.db.prisma.upload.count({ where: { userId: user.id } })).toBe(0);
    const got = await download(cookie, document.id);
    expect(got.status).toBe(200);
    expect(sha256(got.body)).toBe(sha256(data));
  });

  it("refuses content that does not match the extension (422, the sniffer's message) and removes the staged file", async () => {
    const { user, cookie } = await client();
    const withNul = Buffer.concat([text(300), Buffer.from([0, 0, 0]), text(300)]);
    const outcome = await tusUpload({ server: h, cookie, data: withNul, fileName: "notes.txt" });
    expect(outcome.status).toBe(422);
    expect(outcome.body).toMatch(/NUL|not .*text/i);
    const id = outcome.uploadUrl?.split("/").pop() ?? "";
    expect(stagingFiles()).not.toContain(id);
    expect(await h.db.prisma.upload.count({ where: { userId: user.id } })).toBe(0);
    expect(await h.db.prisma.document.count({ where: { userId: user.id } })).toBe(0);
  });

  it.each([
    ["a Windows program named .pdf", "invoice.pdf", fixtures.exe],
    ["a Linux program named .pdf", "invoice.pdf", fixtures.elf],
    ["an HTML page named .pdf", "invoice.pdf", fixtures.html],
    ["a zip that is not Office Open XML named .docx", "contract.docx", fixtures.fakeDocx],
    ["a text with NUL bytes named .txt", "notes.txt", fixtures.txtWithNul],
    ["a PNG named .jpg", "photo.jpg", fixtures.png],
  ])("refuses %s (422, a message saying why), keeping nothing", async (_what, fileName, make) => {
    const { user, cookie } = await client();
    const outcome = await tusUpload({ server: h, cookie, data: make(), fileName });
    expect(outcome.status).toBe(422);
    expect(outcome.body.length).toBeGreaterThan(10);
    expect(outcome.body).not.toMatch(/\/tmp|at .*\.ts|Error:/);
    const id = outcome.uploadUrl?.split("/").pop() ?? "";
    expect(stagingFiles().filter((f) => f.startsWith(id))).toEqual([]);
    expect(await h.db.prisma.upload.count({ where: { userId: user.id } })).toBe(0);
    expect(await h.db.prisma.document.count({ where: { userId: user.id } })).toBe(0);
  });

  it("accepts genuine files of each allowed kind, recording the sniffed type", async () => {
    const { cookie } = await client();
    for (const [fileName, data, mimeType] of [
      ["statement.pdf", fixtures.pdf(), "application/pdf"],
      ["scan.png", fixtures.png(), "image/png"],
      ["photo.jpeg", fixtures.jpeg(), "image/jpeg"],
      [
        "contract.docx",
        fixtures.docx(),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ],
      ["sheet.xlsx", fixtures.xlsx(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      ["ledger.csv", fixtures.csv(), "text/csv"],
    ] as const) {
      const { document } = answerOf(await tusUpload({ server: h, cookie, data, fileName }));
      const row = await h.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
      expect([fileName, row.mimeType]).toEqual([fileName, mimeType]);
    }
  });

  it("resumes an interrupted upload from the offset HEAD answers, ending byte-identical", async () => {
    const { user, cookie } = await client();
    const data = Buffer.concat([text(700_000, "first"), text(700_000, "second"), text(200_000, "third")]);
    const first = await tusUpload({
      server: h,
      cookie,
      data,
      fileName: "ledger.txt",
      chunkSize: 512 * 1024,
      abortAfterChunk: (accepted) => accepted >= 512 * 1024,
    });
    expect(first.ok).toBe(false);
    const uploadUrl = first.uploadUrl ?? "";
    const head = await tusRequest("HEAD", uploadUrl, cookie);
    expect(head.status).toBe(200);
    expect(head.headers["upload-offset"]).toBe(String(512 * 1024));
    expect(await h.db.prisma.document.count({ where: { userId: user.id } })).toBe(0);

    const resumed = await tusUpload({
      server: h,
      cookie,
      data,
      fileName: "ledger.txt",
      uploadUrl,
      chunkSize: 512 * 1024,
    });
    const { document } = answerOf(resumed);
    const row = await h.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
    expect(row.sha256).toBe(sha256(data));
    const got = await download(cookie, document.id);
    expect(sha256(got.body)).toBe(sha256(data));
  });

  it("keeps odd file names safe: last segment only, invisible characters dropped, NFC, stored under a generated key, sent back per RFC 6266", async () => {
    const { cookie } = await client();
    const names: [string, string][] = [
      ["../../etc/passwd.pdf", "passwd.pdf"],
      ["C:\\Users\\me\\report.pdf", "report.pdf"],
      ["invoice\u202Efdp.exe.pdf", "invoicefdp.exe.pdf"],
      ["📄 résumé.pdf", "📄 résumé.pdf"],
      ["Re\u0301sume\u0301.pdf", "Résumé.pdf"],
      ['quote"s;\r\nX-Evil: 1.pdf', 'quote"s;X-Evil: 1.pdf'],
    ];
    for (const [sent, kept] of names) {
      const { document } = answerOf(
        await tusUpload({ server: h, cookie, data: fixtures.pdf(), fileName: sent }),
      );
      expect(document.fileName).toBe(kept);
      const row = await h.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
      expect(row.storageKey).toMatch(/^[A-Za-z0-9/_-]+$/);
      const got = await download(cookie, document.id);
      expect(got.status).toBe(200);
      expect(dispositionName(got.headers.get("content-disposition") ?? "")).toBe(kept);
      expect(got.headers.get("x-evil")).toBeNull();
    }
    expect(existsSync(path.join(h.dataDir, "etc"))).toBe(false);
    expect(existsSync(path.join(h.dataDir, "..", "etc", "passwd.pdf"))).toBe(false);
  });
});

/** Uploads a 100-byte report.txt as `cookie`'s report for the client `clientId`. */
function sendReport(cookie: string, clientId: number, title?: string): Promise<TusOutcome> {
  return tusUpload({
    server: h,
    cookie,
    data: text(100),
    fileName: "report.txt",
    title,
    metadata: { clientId: String(clientId) },
  });
}

/** Uploads a 100-byte id.txt as `cookie`'s next version of the document `documentId`. */
function resubmit(cookie: string, documentId: number): Promise<TusOutcome> {
  return tusUpload({
    server: h,
    cookie,
    data: text(100),
    fileName: "id.txt",
    metadata: { documentId: String(documentId) },
  });
}

describe("reports and resubmissions", () => {
  it("lets approve:documents (userAdmin, mainAdmin) send a client a report: approved, from the team, audited; a client or a non-client target is refused", async () => {
    const target = await createUser(h.db, { userType: "client" });
    const prospect = await createUser(h.db, { userType: "prospect" });
    const sender = await client();
    const refused = await sendReport(sender.cookie, target.id);
    expect(refused.status).toBe(403);

    for (const userType of ["userAdmin", "mainAdmin"] as const) {
      const admin = await createAdmin(h.db, { userType });
      const cookie = await h.signIn(admin.username);
      const notClient = await sendReport(cookie, prospect.id);
      expect(notClient.status).toBe(404);
      const { document } = answerOf(await sendReport(cookie, target.id, "Your Q3 report"));
      expect(document).toMatchObject({ status: "approved", fromTeam: true });
      const row = await h.db.prisma.document.findUniqueOrThrow({
        where: { id: document.id },
        include: { history: true },
      });
      const name = `${admin.firstName} ${admin.lastName}`;
      expect(row).toMatchObject({
        userId: target.id,
        uploadedByName: name,
        uploadedById: admin.id,
        approvedBy: name,
      });
      expect(row.approvedAt).not.toBeNull();
      expect(row.history.map((e) => e.action)).toEqual(["report"]);
      expect(await outboxOf(document.id)).toEqual([
        {
          type: "document.uploaded",
          payload: expect.objectContaining({ userId: target.id, uploadedById: admin.id, fromTeam: true }),
        },
      ]);
      const audits = await h.db.prisma.auditLog.count({
        where: { targetType: "document", targetId: String(document.id) },
      });
      expect(audits).toBe(1);
      // the client can download it
      const got = await download(await h.signIn(target.username), document.id);
      expect(got.status).toBe(200);
    }
  });

  it("lets the owner resubmit a rejected document as its next version (pending again, decision cleared); others 404, a pending one 409", async () => {
    const owner = await client();
    const other = await client();
    const { document } = answerOf(
      await tusUpload({ server: h, cookie: owner.cookie, data: text(100), fileName: "id.txt" }),
    );
    const pending = await resubmit(owner.cookie, document.id);
    expect(pending.status).toBe(409);
    await h.db.prisma.document.update({
      where: { id: document.id },
      data: { status: "rejected", rejectedBy: "Reviewer", rejectedAt: new Date(), rejectionReason: "Blurry" },
    });
    const stranger = await resubmit(other.cookie, document.id);
    expect(stranger.status).toBe(404);

    const data = text(200, "sharper");
    const resubmitted = answerOf(
      await tusUpload({
        server: h,
        cookie: owner.cookie,
        data,
        fileName: "id-v2.txt",
        title: "ID, sharper",
        metadata: { documentId: String(document.id) },
      }),
    );
    expect(resubmitted.document).toMatchObject({
      id: document.id,
      version: 2,
      status: "pending",
      fileName: "id-v2.txt",
    });
    const row = await h.db.prisma.document.findUniqueOrThrow({
      where: { id: document.id },
      include: { versions: { orderBy: { version: "asc" } }, history: { orderBy: { id: "asc" } } },
    });
    expect(row).toMatchObject({
      rejectedBy: null,
      rejectedAt: null,
      rejectionReason: null,
      sha256: sha256(data),
    });
    expect(row.versions.map((v) => [v.version, v.fileName])).toEqual([
      [1, "id.txt"],
      [2, "id-v2.txt"],
    ]);
    expect(row.versions[0]?.storageKey).not.toBe(row.versions[1]?.storageKey);
    expect(row.history.map((e) => e.action)).toEqual(["uploaded", "resubmitted"]);
    expect((await outboxOf(document.id)).map((e) => e.type)).toEqual([
      "document.uploaded",
      "document.resubmitted",
    ]);
    // the first version is still there
    const old = await fetch(`${h.url}/api/documents/${document.id}/versions/1/download`, {
      headers: { Cookie: owner.cookie },
    });
    expect(old.status).toBe(200);
    expect(sha256(Buffer.from(await old.arrayBuffer()))).toBe(sha256(text(100)));
  });
});
