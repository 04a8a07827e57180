import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import {
  alternatingTusUpload,
  type FilesServer,
  sha256,
  startFilesServer,
  tusCreate,
  tusPatch,
  tusRequest,
} from "@gateway/testing/uploadHarness";
import { fixtures, isolatedDb, switchToCloudStorage } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import { createUser } from "@services/shared/testing/factories";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";

// Uploads in progress across gateways (issue 22): with cloud storage configured, two gateways on one
// database, each with a data directory of its own, take the PATCHes of one upload in turn, as a load
// balancer without affinity sends them; the bytes wait in the shared store (s3rver), never on either
// gateway's disk.

let isolated: { db: Db; drop(): Promise<void> };
let s3: RunningS3rver;
let a: FilesServer;
let b: FilesServer;
let s3client: S3Client;

beforeAll(async () => {
  // storage_config is read by every upload: a database of this file's own
  isolated = await isolatedDb();
  s3 = await startS3rver();
  const { settings } = s3;
  await switchToCloudStorage(isolated.db, settings);
  a = await startFilesServer({ db: isolated.db });
  b = await startFilesServer({ db: isolated.db });
  s3client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
});
afterAll(async () => {
  s3client.destroy();
  await a.close();
  await b.close();
  await s3.stop();
  await isolated.drop();
});

async function client(): Promise<string> {
  const user = await createUser(isolated.db, { userType: "client" });
  return a.signIn(user.username);
}

/** The keys under `prefix` in the bucket. */
async function keysUnder(prefix: string): Promise<string[]> {
  const page = await s3client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key ?? "");
}

/** What either gateway holds in its local staging area. */
function stagedLocally(): string[] {
  return [a, b].flatMap((server) => {
    const dir = path.join(server.dataDir, "uploads");
    return existsSync(dir) ? readdirSync(dir) : [];
  });
}

/** UTF-8 text of `bytes` bytes. */
function text(bytes: number): Buffer {
  const line = "A line of the quarterly receivables report, ünïcödé included.\n";
  return Buffer.from(line.repeat(Math.ceil(bytes / Buffer.byteLength(line)))).subarray(0, bytes);
}

describe("an upload whose PATCHes reach different gateways (cloud storage)", () => {
  it("continues on the other gateway at each PATCH, far below S3's 5 MiB part size, and becomes one document whose bytes either gateway serves", async () => {
    const cookie = await client();
    const data = text(300_000);
    const outcome = await alternatingTusUpload({
      urls: [a.url, b.url],
      cookie,
      data,
      fileName: "report.txt",
      chunkSize: 70_000,
    });
    expect(outcome.answers.map((x) => [x.gateway, x.method, x.status])).toEqual([
      [0, "POST", 201],
      [1, "PATCH", 204],
      [0, "PATCH", 204],
      [1, "PATCH", 204],
      [0, "PATCH", 204],
      [1, "PATCH", 200],
    ]);
    const { document } = JSON.parse(outcome.body) as { document: { id: number; fileSize: number } };
    expect(document.fileSize).toBe(data.length);
    const row = await isolated.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
    expect([row.storageBackend, row.sha256]).toEqual(["cloud", sha256(data)]);
    // nothing staged is left, in the store or on either gateway
    expect(await keysUnder("uploads/")).toEqual([]);
    expect(stagedLocally()).toEqual([]);
    for (const server of [a, b]) {
      const res = await fetch(`${server.url}/api/documents/${document.id}/download`, {
        headers: { Cookie: cookie },
      });
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    }
  });

  it("answers HEAD on the other gateway with the offset the first one reached, refuses a stale offset with 409, and a DELETE there forgets the upload everywhere", async () => {
    const cookie = await client();
    const data = text(50_000);
    const created = await tusCreate(a.url, cookie, {
      length: data.length,
      fileName: "notes.txt",
      title: "Notes",
    });
    expect(created.status).toBe(201);
    const uploadPath = new URL(String(created.headers.location), a.url).pathname;
    const patch = (url: string, offset: number, bytes: Buffer) =>
      tusPatch(`${url}${uploadPath}`, cookie, [bytes], { offset });
    expect((await patch(a.url, 0, data.subarray(0, 30_000))).status).toBe(204);
    const head = await tusRequest("HEAD", `${b.url}${uploadPath}`, cookie);
    expect([head.status, head.headers["upload-offset"]]).toEqual([200, "30000"]);
    // a client that missed the first answer and sends its bytes again at 0
    expect((await patch(b.url, 0, data.subarray(0, 10_000))).status).toBe(409);
    const id = uploadPath.split("/").at(-1) ?? "";
    expect((await keysUnder(`uploads/${id}/`)).length).toBeGreaterThan(0);
    expect(stagedLocally()).toEqual([]);

    const deleted = await tusRequest("DELETE", `${b.url}${uploadPath}`, cookie);
    expect(deleted.status).toBe(204);
    expect(await isolated.db.prisma.upload.findUnique({ where: { id } })).toBeNull();
    expect(await keysUnder(`uploads/${id}/`)).toEqual([]);
    const after = await tusRequest("HEAD", `${a.url}${uploadPath}`, cookie);
    expect(after.status).toBe(404);
  });

  it("takes the web client's 8 MiB chunks (a part S3 would buffer) across gateways", async () => {
    const cookie = await client();
    const data = text(9 * 1024 * 1024);
    const outcome = await alternatingTusUpload({
      urls: [b.url, a.url],
      cookie,
      data,
      fileName: "ledger.csv",
      chunkSize: 8 * 1024 * 1024,
    });
    expect(outcome.answers.map((x) => x.status)).toEqual([201, 204, 200]);
    const { document } = JSON.parse(outcome.body) as { document: { id: number } };
    const row = await isolated.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
    expect(row.sha256).toBe(sha256(data));
    expect(await keysUnder("uploads/")).toEqual([]);
  });

  it("stages locally again once the storage setting is local, and an upload staged in the cloud before the switch still finishes", async () => {
    const cookie = await client();
    const data = text(40_000);
    const created = await alternatingTusUpload({
      urls: [a.url, b.url],
      cookie,
      data: data,
      fileName: "before.txt",
      chunkSize: 40_000,
    });
    expect(created.status).toBe(200);
    const config = await isolated.db.prisma.storageConfig.findFirstOrThrow();
    // an upload begun in the cloud, then the switch, then its last PATCH
    const begun = await tusCreate(a.url, cookie, {
      length: data.length,
      fileName: "switch.txt",
      title: "Switch",
    });
    const uploadPath = new URL(String(begun.headers.location), a.url).pathname;
    await isolated.db.prisma.storageConfig.update({
      where: { id: config.id },
      data: { storageType: "local" },
    });
    try {
      const finished = await tusPatch(`${b.url}${uploadPath}`, cookie, [data]);
      expect(finished.status).toBe(200);
      const { document } = JSON.parse(finished.body.toString()) as { document: { id: number } };
      const row = await isolated.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
      expect([row.storageBackend, row.sha256]).toEqual(["local", sha256(data)]);
      expect(await keysUnder("uploads/")).toEqual([]);
      const local = await tusCreate(a.url, cookie, { length: 10, fileName: "local.txt", title: "Local" });
      const id = String(local.headers.location).split("/").at(-1) ?? "";
      expect((await isolated.db.prisma.upload.findUniqueOrThrow({ where: { id } })).stagedIn).toBe("local");
      expect(stagedLocally()).toEqual([id, `${id}.json`]);
      const dropped = await tusRequest("DELETE", `${a.url}/api/uploads/${id}`, cookie);
      expect([dropped.status, stagedLocally()]).toEqual([204, []]);
    } finally {
      await isolated.db.prisma.storageConfig.update({
        where: { id: config.id },
        data: { storageType: "cloud" },
      });
    }
  });

  it("refuses a file whose content does not match its extension, whichever gateway finishes it, and leaves nothing staged", async () => {
    const cookie = await client();
    const outcome = await alternatingTusUpload({
      urls: [a.url, b.url],
      cookie,
      data: fixtures.png(),
      fileName: "scan.pdf",
      chunkSize: 100,
    });
    expect(outcome.status).toBe(422);
    expect(await keysUnder("uploads/")).toEqual([]);
    expect(stagedLocally()).toEqual([]);
  });
});
