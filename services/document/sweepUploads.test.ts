import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { sweepExpiredUploads } from "./sweepUploads";

let db: Db;
let directory: string;

beforeAll(async () => {
  db = await testDb();
  directory = mkdtempSync(path.join(tmpdir(), "portal-staging-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// real time: other test files' uploads (expiring 24 hours from now) share the table and must survive
const NOW = new Date();
const HOUR = 3600_000;

/** Staged bytes and record of an upload, last modified at `modified`. */
function stage(id: string, modified: Date): void {
  for (const name of [id, `${id}.json`]) {
    writeFileSync(path.join(directory, name), "x");
    utimesSync(path.join(directory, name), modified, modified);
  }
}

async function upload(userId: number, expiresAt: Date): Promise<string> {
  const id = randomBytes(16).toString("hex");
  await db.prisma.upload.create({
    data: {
      id,
      userId,
      purpose: "document",
      title: "T",
      fileName: "a.txt",
      fileType: "txt",
      declaredSize: 10n,
      expiresAt,
    },
  });
  stage(id, new Date(expiresAt.getTime() - 24 * HOUR));
  return id;
}

describe("sweepExpiredUploads", () => {
  it("removes expired uploads with their staged files, and old staged files no upload accounts for; keeps the rest", async () => {
    const user = await createUser(db, { userType: "client" });
    const expired = await upload(user.id, new Date(NOW.getTime() - HOUR));
    const live = await upload(user.id, new Date(NOW.getTime() + HOUR));
    const oldStray = randomBytes(16).toString("hex");
    stage(oldStray, new Date(NOW.getTime() - 25 * HOUR));
    const freshStray = randomBytes(16).toString("hex");
    stage(freshStray, new Date(NOW.getTime() - HOUR));
    writeFileSync(path.join(directory, "not-an-upload.txt"), "kept");

    const result = await sweepExpiredUploads({ db, now: NOW, directory });

    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.strays).toBe(1);
    const exists = (name: string) => existsSync(path.join(directory, name));
    expect(await db.prisma.upload.findUnique({ where: { id: expired } })).toBeNull();
    expect([exists(expired), exists(`${expired}.json`)]).toEqual([false, false]);
    expect(await db.prisma.upload.findUnique({ where: { id: live } })).not.toBeNull();
    expect([exists(live), exists(`${live}.json`)]).toEqual([true, true]);
    expect([exists(oldStray), exists(`${oldStray}.json`)]).toEqual([false, false]);
    expect([exists(freshStray), exists(`${freshStray}.json`)]).toEqual([true, true]);
    expect(exists("not-an-upload.txt")).toBe(true);
  });

  it("copes with a staging directory that does not exist yet", async () => {
    const result = await sweepExpiredUploads({
      db,
      now: new Date(0),
      directory: path.join(directory, "missing"),
    });
    expect(result.strays).toBe(0);
  });
});
