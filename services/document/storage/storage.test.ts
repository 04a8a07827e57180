import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { config, parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { isolatedDb } from "@services/shared/testing/db";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";
import { type AdapterUnderTest, cloudStorageRow, STORAGE_ADAPTERS } from "../testing";
import {
  InvalidStorageKeyError,
  localDocumentStorage,
  newStorageKey,
  StorageNotFoundError,
  type StoragePort,
  storageForBackend,
  storageForNewUploads,
} from "./index";
import { createLocalStorage } from "./local";
import { createS3Storage } from "./s3";

// One suite, both adapters: whatever a document service does with the port behaves the same on
// local disk and on an S3-protocol server (s3rver on a free port).

const MiB = 1024 * 1024;

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A stream of `size` pseudo-random bytes made 1 MiB at a time, and the sha256 of all of them. */
function bigStream(size: number): { body: Readable; digest: () => string } {
  const hash = createHash("sha256");
  let left = size;
  const body = new Readable({
    read() {
      if (left === 0) return void this.push(null);
      const chunk = randomBytes(Math.min(MiB, left));
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { body, digest: () => hash.digest("hex") };
}

async function keysOf(storage: StoragePort, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys.sort();
}

describe.each(STORAGE_ADAPTERS)("storage port: %s adapter", (name, make) => {
  let adapter: AdapterUnderTest;
  let storage: StoragePort;
  beforeAll(async () => {
    adapter = await make();
    storage = adapter.storage;
  });
  afterAll(() => adapter.close());

  it("gives back the very bytes it was given (a small file)", async () => {
    const key = newStorageKey();
    const data = Buffer.from("Bilan 2026 — comptes annuels\n");
    await storage.put(key, Readable.from([data]), { size: data.length, contentType: "text/plain" });
    const { body, size } = await storage.get(key);
    expect(size).toBe(data.length);
    expect(sha256(await readAll(body))).toBe(sha256(data));
  });

  it("streams a 20 MiB file in and out byte-identical (multipart on S3)", async () => {
    const key = newStorageKey();
    const source = bigStream(20 * MiB);
    await storage.put(key, source.body, { size: 20 * MiB, contentType: "application/pdf" });
    const { body, size } = await storage.get(key);
    expect(size).toBe(20 * MiB);
    const hash = createHash("sha256");
    for await (const chunk of body) hash.update(chunk);
    expect(hash.digest("hex")).toBe(source.digest());
  });

  it("takes in a local file (a finished upload) byte-identical, consuming it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "storage-putfile-"));
    try {
      const staged = path.join(dir, "staged");
      const data = randomBytes(3 * MiB);
      await writeFile(staged, data);
      const key = newStorageKey();
      await storage.putFile(key, staged, { size: data.length, contentType: "application/pdf" });
      const { body, size } = await storage.get(key);
      expect(size).toBe(data.length);
      expect(sha256(await readAll(body))).toBe(sha256(data));
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps nothing when the body fails half way", async () => {
    const key = newStorageKey();
    const failing = new Readable({
      read() {
        this.push(randomBytes(64 * 1024));
        this.destroy(new Error("connection lost"));
      },
    });
    await expect(
      storage.put(key, failing, { size: 10 * MiB, contentType: "application/pdf" }),
    ).rejects.toThrow("connection lost");
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await keysOf(storage, key)).toEqual([]);
  });

  it("answers StorageNotFoundError for a key that holds nothing", async () => {
    await expect(storage.get(newStorageKey())).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it("lists the objects under a prefix only, with their sizes", async () => {
    const prefix = `documents/list-${randomBytes(4).toString("hex")}/`;
    const put = (key: string, text: string) =>
      storage.put(key, Readable.from([Buffer.from(text)]), { size: text.length, contentType: "text/plain" });
    await put(`${prefix}a/1`, "one");
    await put(`${prefix}a/2`, "two!");
    await put(`${prefix}b`, "three");
    await put(`${prefix.slice(0, -1)}-other/x`, "not under the prefix");
    const listed: { key: string; size: number; lastModified: Date }[] = [];
    for await (const object of storage.list(prefix)) listed.push(object);
    expect(listed.map((o) => [o.key, o.size]).sort()).toEqual([
      [`${prefix}a/1`, 3],
      [`${prefix}a/2`, 4],
      [`${prefix}b`, 5],
    ]);
    for (const object of listed) expect(Date.now() - object.lastModified.getTime()).toBeLessThan(60_000);
    expect(await keysOf(storage, `${prefix}a/`)).toEqual([`${prefix}a/1`, `${prefix}a/2`]);
    expect(await keysOf(storage, `${prefix}nothing/`)).toEqual([]);
  });

  it("deletes an object, and deleting it again is no error", async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from("x")]), { size: 1, contentType: "text/plain" });
    await storage.delete(key);
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it("hands a download over as an attachment named after the file", async () => {
    const key = newStorageKey();
    const data = Buffer.from("%PDF-1.4 not really\n%%EOF\n");
    await storage.put(key, Readable.from([data]), { size: data.length, contentType: "application/pdf" });
    const target = await storage.download(key, {
      fileName: "Relevé «2026».pdf",
      contentType: "application/pdf",
    });
    if (name === "local") {
      if (target.kind !== "stream") throw new Error("local downloads are streams");
      expect(target.size).toBe(data.length);
      expect(await readAll(target.body)).toEqual(data);
      return;
    }
    if (target.kind !== "redirect") throw new Error("cloud downloads are presigned URLs");
    expect(new URL(target.url).searchParams.get("X-Amz-Expires")).toBe("60");
    const res = await fetch(target.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      "attachment; filename=\"Relev? ?2026?.pdf\"; filename*=UTF-8''Relev%C3%A9%20%C2%AB2026%C2%BB.pdf",
    );
    expect(Buffer.from(await res.arrayBuffer())).toEqual(data);
  });

  if (name === "s3") {
    it("signs download URLs that stop working once expired", async () => {
      const key = newStorageKey();
      await storage.put(key, Readable.from([Buffer.from("short-lived")]), {
        size: 11,
        contentType: "text/plain",
      });
      const expiring = adapter.withUrlSeconds?.(1);
      if (!expiring) throw new Error("the S3 adapter signs URLs for any lifetime");
      const target = await expiring.download(key, { fileName: "a.txt", contentType: "text/plain" });
      if (target.kind !== "redirect") throw new Error("cloud downloads are presigned URLs");
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const res = await fetch(target.url);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("expired");
    });

    it("never signs a URL for longer than 60 s", async () => {
      const asked = adapter.withUrlSeconds?.(3600);
      if (!asked) throw new Error("the S3 adapter signs URLs for any lifetime");
      const target = await asked.download(newStorageKey(), { fileName: "a.txt", contentType: "text/plain" });
      if (target.kind !== "redirect") throw new Error("cloud downloads are presigned URLs");
      expect(Number(new URL(target.url).searchParams.get("X-Amz-Expires"))).toBe(60);
    });
  }

  if (name === "local") {
    it("refuses any key that could leave its root", async () => {
      const body = () => Readable.from([Buffer.from("x")]);
      const keys = [
        "../escape",
        "documents/../../escape",
        "/etc/passwd",
        "documents\\..\\escape",
        "documents/a\0b",
        "documents//double",
        "documents/./dot",
        "",
      ];
      for (const key of keys) {
        await expect(storage.put(key, body(), { size: 1, contentType: "text/plain" })).rejects.toBeInstanceOf(
          InvalidStorageKeyError,
        );
        await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
      expect(() => storage.list("../")).toThrow(InvalidStorageKeyError);
    });

    it("leaves no temporary file behind after a write", async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), "storage-local-"));
      try {
        const local = createLocalStorage(root);
        await local.put("documents/2026/11/abc", Readable.from([Buffer.from("x")]), {
          size: 1,
          contentType: "text/plain",
        });
        expect(await readdir(path.join(root, "documents/2026/11"))).toEqual(["abc"]);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }
});

describe("new storage keys", () => {
  it("are documents/<yyyy>/<mm>/<uuid>, unique, never from a file name", () => {
    const key = newStorageKey(new Date("2026-03-05T10:00:00Z"));
    expect(key).toMatch(
      /^documents\/2026\/03\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(newStorageKey()).not.toBe(newStorageKey());
  });
});

describe("switching the storage backend", () => {
  const original = config();
  let dataDir: string;
  let server: RunningS3rver;
  let isolated: { db: Db; drop(): Promise<void> };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "storage-data-"));
    setConfig(parseConfig({ ...process.env, DATA_DIR: dataDir }));
    server = await startS3rver();
    isolated = await isolatedDb();
  });
  afterAll(async () => {
    setConfig(original);
    await isolated.drop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stores under DATA_DIR/documents by default, with no settings row", async () => {
    const storage = await storageForNewUploads(isolated.db);
    expect(storage.backend).toBe("local");
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from("local")]), { size: 5, contentType: "text/plain" });
    expect(await readdir(path.join(dataDir, "documents", path.dirname(key)))).toContain(path.basename(key));
  });

  it("refuses cloud while it is not configured", async () => {
    await expect(storageForBackend(isolated.db, "cloud")).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: "Cloud storage is not configured",
    });
  });

  it("sends new uploads to the cloud once chosen, and old local files stay readable", async () => {
    const db = isolated.db;
    await db.prisma.storageConfig.create({ data: { storageType: "local", updatedBy: "seed" } });
    const before = await storageForNewUploads(db);
    const oldKey = newStorageKey();
    const oldBytes = randomBytes(1000);
    await before.put(oldKey, Readable.from([oldBytes]), { size: 1000, contentType: "application/pdf" });

    const s = server.settings;
    await db.prisma.storageConfig.updateMany({ data: cloudStorageRow(s) });

    const after = await storageForNewUploads(db);
    expect(after.backend).toBe("cloud");
    const newKey = newStorageKey();
    await after.put(newKey, Readable.from([Buffer.from("to the cloud")]), {
      size: 12,
      contentType: "text/plain",
    });
    expect(await keysOf(createS3Storage(s), newKey)).toEqual([newKey]);
    expect(await keysOf(localDocumentStorage(), newKey)).toEqual([]);

    const old = await (await storageForBackend(db, "local")).get(oldKey);
    expect(await readAll(old.body)).toEqual(oldBytes);
    const fresh = await (await storageForBackend(db, "cloud")).get(newKey);
    expect((await readAll(fresh.body)).toString()).toBe("to the cloud");
  });
});
