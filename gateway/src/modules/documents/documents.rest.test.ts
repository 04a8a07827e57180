import { rm } from "node:fs/promises";
import path from "node:path";
import { filesServerFixture } from "@gateway/testing/fixtures";
import { type FilesServer, sha256, startFilesServer, tusUpload } from "@gateway/testing/uploadHarness";
import { fixtures, isolatedDb, switchToCloudStorage } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";

// Downloads and previews of uploaded documents: who may, what the answers say to the browser,
// the exact download count under concurrency, and a stored object that went missing.

const h = filesServerFixture();

const PNG = fixtures.png();
const PDF = fixtures.pdf();
const CSV = fixtures.csv();

interface Uploaded {
  id: number;
  data: Buffer;
}

async function signedIn(userType: User["userType"]): Promise<{ user: User; cookie: string }> {
  const user =
    userType === "mainAdmin" || userType === "userAdmin"
      ? await createAdmin(h.db, { userType })
      : await createUser(h.db, { userType });
  return { user, cookie: await h.signIn(user.username) };
}

async function upload(cookie: string, data: Buffer, fileName: string): Promise<Uploaded> {
  const outcome = await tusUpload({ server: h, cookie, data, fileName });
  expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 200, body: expect.any(String) });
  const { document } = JSON.parse(outcome.body) as { document: { id: number } };
  return { id: document.id, data };
}

function get(pathname: string, cookie?: string, method = "GET"): Promise<Response> {
  return fetch(`${h.url}${pathname}`, {
    method,
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
}

/**
 * Everyone but a document's owner, each with the status a read of it answers: 200 for the
 * administrators (read:all_documents), 404 for another client and a prospect, 401 signed out.
 */
async function othersThanTheOwner(): Promise<[string, string | undefined, number][]> {
  return [
    ["userAdmin", (await signedIn("userAdmin")).cookie, 200],
    ["mainAdmin", (await signedIn("mainAdmin")).cookie, 200],
    ["another client", (await signedIn("client")).cookie, 404],
    ["prospect", (await signedIn("prospect")).cookie, 404],
    ["signed out", undefined, 401],
  ];
}

async function count(id: number): Promise<number> {
  return (await h.db.prisma.document.findUniqueOrThrow({ where: { id } })).downloadCount;
}

describe("GET /api/documents/:id/download", () => {
  let owner: { user: User; cookie: string };
  let doc: Uploaded;

  beforeAll(async () => {
    owner = await signedIn("client");
    doc = await upload(owner.cookie, CSV, "ledger 2025.csv");
  });

  it("answers the owner the file as an attachment: sniffed type, nosniff, private no-store, length", async () => {
    const before = await count(doc.id);
    const res = await get(`/api/documents/${doc.id}/download`, owner.cookie);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(sha256(body)).toBe(sha256(doc.data));
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="ledger 2025.csv"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-length")).toBe(String(doc.data.length));
    expect(await count(doc.id)).toBe(before + 1);
  });

  it("follows the permission matrix: owner and read:all_documents get it; another client and a prospect 404; signed out 401", async () => {
    const cases: [string, string | undefined, number][] = [
      ["owner", owner.cookie, 200],
      ...(await othersThanTheOwner()),
    ];
    for (const [who, cookie, status] of cases) {
      const before = await count(doc.id);
      const res = await get(`/api/documents/${doc.id}/download`, cookie);
      await res.arrayBuffer();
      expect([who, res.status]).toEqual([who, status]);
      expect([who, await count(doc.id)]).toEqual([who, status === 200 ? before + 1 : before]);
    }
  });

  it("answers 404 for ids that name nothing, and 405 to HEAD (which must not count)", async () => {
    for (const id of ["0", "-1", "abc", "2147483648", "1.5", "99999999"]) {
      const res = await get(`/api/documents/${id}/download`, owner.cookie);
      expect([id, res.status]).toEqual([id, 404]);
    }
    const before = await count(doc.id);
    const head = await get(`/api/documents/${doc.id}/download`, owner.cookie, "HEAD");
    expect(head.status).toBe(405);
    expect(await count(doc.id)).toBe(before);
  });

  it("counts 20 concurrent downloads exactly", async () => {
    const before = await count(doc.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await get(`/api/documents/${doc.id}/download`, owner.cookie);
        return { status: res.status, hash: sha256(Buffer.from(await res.arrayBuffer())) };
      }),
    );
    expect(answers.every((a) => a.status === 200 && a.hash === sha256(doc.data))).toBe(true);
    expect(await count(doc.id)).toBe(before + 20);
  });

  it("answers 404 'The file is no longer available' (not 500) when the stored object is gone, without counting", async () => {
    const lost = await upload(owner.cookie, CSV, "lost.csv");
    const row = await h.db.prisma.document.findUniqueOrThrow({ where: { id: lost.id } });
    await rm(path.join(h.dataDir, "documents", row.storageKey ?? "none"), { force: true });
    const res = await get(`/api/documents/${lost.id}/download`, owner.cookie);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: "The file is no longer available" });
    expect(await count(lost.id)).toBe(0);
  });
});

describe("GET /api/documents/:id/versions/:version/download", () => {
  it("serves an existing version to those who may read the document, without counting; 404 otherwise", async () => {
    const owner = await signedIn("client");
    const doc = await upload(owner.cookie, CSV, "v.csv");
    const ok = await get(`/api/documents/${doc.id}/versions/1/download`, owner.cookie);
    expect(ok.status).toBe(200);
    expect(sha256(Buffer.from(await ok.arrayBuffer()))).toBe(sha256(CSV));
    expect(await count(doc.id)).toBe(0);
    expect((await get(`/api/documents/${doc.id}/versions/2/download`, owner.cookie)).status).toBe(404);
    expect((await get(`/api/documents/${doc.id}/versions/x/download`, owner.cookie)).status).toBe(404);
    const other = await signedIn("client");
    expect((await get(`/api/documents/${doc.id}/versions/1/download`, other.cookie)).status).toBe(404);
    const admin = await signedIn("userAdmin");
    expect((await get(`/api/documents/${doc.id}/versions/1/download`, admin.cookie)).status).toBe(200);
  });
});

describe("GET /api/documents/:id/preview", () => {
  it.each([
    ["scan.png", PNG, "image/png"],
    ["statement.pdf", PDF, "application/pdf"],
  ])("shows %s inline under a sandbox CSP, with nosniff; does not count", async (fileName, data, type) => {
    const owner = await signedIn("client");
    const doc = await upload(owner.cookie, data, fileName);
    const res = await get(`/api/documents/${doc.id}/preview`, owner.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-disposition")).toBe(`inline; filename=${fileName}`);
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    expect(await count(doc.id)).toBe(0);
  });

  it("refuses what cannot be previewed (415) and follows the permission matrix", async () => {
    const owner = await signedIn("client");
    for (const [fileName, data] of [
      ["data.csv", CSV],
      ["contract.docx", fixtures.docx()],
    ] as const) {
      const doc = await upload(owner.cookie, data, fileName);
      const refused = await get(`/api/documents/${doc.id}/preview`, owner.cookie);
      expect([fileName, refused.status]).toEqual([fileName, 415]);
    }
    const png = await upload(owner.cookie, PNG, "scan.png");
    const cases = await othersThanTheOwner();
    for (const [who, cookie, status] of cases) {
      const res = await get(`/api/documents/${png.id}/preview`, cookie);
      await res.arrayBuffer();
      expect([who, res.status]).toEqual([who, status]);
    }
  });
});

describe("cloud storage (S3 on s3rver)", () => {
  let cloud: FilesServer;
  let isolated: { db: Db; drop(): Promise<void> };
  let s3: RunningS3rver;

  beforeAll(async () => {
    // storage_config is read by every upload: this part changes it on a database of its own
    isolated = await isolatedDb();
    s3 = await startS3rver();
    cloud = await startFilesServer({ db: isolated.db, dataDir: h.dataDir });
  });
  afterAll(async () => {
    await cloud.close();
    await s3.stop();
    await isolated.drop();
  });

  const switchToCloud = () => switchToCloudStorage(isolated.db, s3.settings);

  it("stores new uploads in S3 and answers downloads with a short-lived presigned redirect; files uploaded before the switch stay downloadable", async () => {
    const user = await createUser(isolated.db, { userType: "client" });
    const cookie = await cloud.signIn(user.username);
    const upload = async (data: Buffer, fileName: string) => {
      const outcome = await tusUpload({ server: cloud, cookie, data, fileName });
      expect(outcome.status).toBe(200);
      return (JSON.parse(outcome.body) as { document: { id: number } }).document.id;
    };
    const fetchDownload = (id: number) =>
      fetch(`${cloud.url}/api/documents/${id}/download`, { headers: { Cookie: cookie }, redirect: "manual" });

    const before = await upload(CSV, "before.csv");
    await switchToCloud();
    const after = await upload(CSV, "after.csv");
    const png = await upload(PNG, "scan.png");

    const row = await isolated.db.prisma.document.findUniqueOrThrow({ where: { id: after } });
    expect(row.storageBackend).toBe("cloud");
    const redirect = await fetchDownload(after);
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location") ?? "";
    expect(location.startsWith(s3.settings.endpoint)).toBe(true);
    const expires = Number(new URL(location).searchParams.get("X-Amz-Expires"));
    expect(expires).toBeGreaterThan(0);
    expect(expires).toBeLessThanOrEqual(60);
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(sha256(Buffer.from(await object.arrayBuffer()))).toBe(sha256(CSV));
    expect(
      (await isolated.db.prisma.document.findUniqueOrThrow({ where: { id: after } })).downloadCount,
    ).toBe(1);

    const old = await fetchDownload(before);
    expect(old.status).toBe(200);
    expect(sha256(Buffer.from(await old.arrayBuffer()))).toBe(sha256(CSV));

    // previews stream through the gateway, so the sandbox applies
    const preview = await fetch(`${cloud.url}/api/documents/${png}/preview`, { headers: { Cookie: cookie } });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-security-policy")).toBe("sandbox");
    expect(sha256(Buffer.from(await preview.arrayBuffer()))).toBe(sha256(PNG));
  });
});
