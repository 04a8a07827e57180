import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { finishUpload, type StoredFile } from "./finishUpload";
import { localDocumentStorage } from "./storage";
import { StorageNotFoundError } from "./storage/port";
import { sweepOrphanObjects } from "./sweepOrphans";
import { sweepExpiredUploads } from "./sweepUploads";

// A crash between storing the object and committing the document: nothing becomes visible, and
// what is left behind (the object, the staged upload) is swept.

let db: Db;
let dataDir: string;
let staging: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "portal-finish-"));
  staging = path.join(dataDir, "uploads");
  mkdirSync(staging);
  setConfig({ ...parseConfig(process.env), DATA_DIR: dataDir });
  db = await testDb();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A recorded upload whose staged bytes are `content`. */
async function stagedUpload(content: string): Promise<{ id: string; stagedPath: string; userId: number }> {
  const user = await createUser(db, { userType: "client" });
  const id = randomBytes(16).toString("hex");
  await db.prisma.upload.create({
    data: {
      id,
      userId: user.id,
      purpose: "document",
      title: "Crash",
      fileName: "crash.txt",
      fileType: "txt",
      declaredSize: BigInt(Buffer.byteLength(content)),
      expiresAt: new Date(Date.now() + 3600_000),
    },
  });
  const stagedPath = path.join(staging, id);
  writeFileSync(stagedPath, content);
  writeFileSync(`${stagedPath}.json`, "{}");
  return { id, stagedPath, userId: user.id };
}

async function objectExists(key: string): Promise<boolean> {
  try {
    const { body } = await localDocumentStorage().get(key);
    body.destroy();
    return true;
  } catch (err) {
    if (err instanceof StorageNotFoundError) return false;
    throw err;
  }
}

describe("finishUpload when the transaction fails after the object was stored", () => {
  it("leaves no document, deletes the stored object, and forgets the upload", async () => {
    const upload = await stagedUpload("some text\n");
    let stored: StoredFile | undefined;
    await expect(
      finishUpload({
        db,
        uploadId: upload.id,
        stagedPath: upload.stagedPath,
        afterStore: async (file) => {
          stored = file;
          expect(await objectExists(file.key)).toBe(true);
          throw new Error("database went away");
        },
      }),
    ).rejects.toThrow("database went away");
    expect(stored).toBeDefined();
    expect(await objectExists(stored?.key ?? "")).toBe(false);
    expect(await db.prisma.document.count({ where: { userId: upload.userId } })).toBe(0);
    expect(await db.prisma.upload.findUnique({ where: { id: upload.id } })).toBeNull();
    expect(existsSync(upload.stagedPath)).toBe(false);
  });
});

describe("finishUpload when the process dies after the object was stored", () => {
  it("shows nothing, and the sweeps remove the orphan object, the upload row and the staged file", async () => {
    const upload = await stagedUpload("text that never became a document\n");
    let stored: StoredFile | undefined;
    let crashed: () => void = () => undefined;
    const reachedCrash = new Promise<void>((resolve) => {
      crashed = resolve;
    });
    // the "crash": finishUpload stops for good between storing the object and its transaction
    void finishUpload({
      db,
      uploadId: upload.id,
      stagedPath: upload.stagedPath,
      afterStore: (file) => {
        stored = file;
        crashed();
        return new Promise<void>(() => undefined);
      },
    });
    await reachedCrash;
    const key = stored?.key ?? "";
    expect(await objectExists(key)).toBe(true);
    expect(await db.prisma.document.count({ where: { userId: upload.userId } })).toBe(0);
    expect(await db.prisma.documentVersion.count({ where: { storageKey: key } })).toBe(0);

    // an hour later the orphan sweep takes the object; a day later the upload sweep the rest
    const storage = localDocumentStorage();
    const soon = await sweepOrphanObjects({ db, storage, now: new Date(Date.now() + 60_000) });
    expect(soon.removed).not.toContain(key);
    const later = await sweepOrphanObjects({ db, storage, now: new Date(Date.now() + 2 * 3600_000) });
    expect(later.removed).toContain(key);
    expect(await objectExists(key)).toBe(false);
    await sweepExpiredUploads({ db, directory: staging, now: new Date(Date.now() + 25 * 3600_000) });
    expect(await db.prisma.upload.findUnique({ where: { id: upload.id } })).toBeNull();
    expect(existsSync(upload.stagedPath)).toBe(false);
  });
});
