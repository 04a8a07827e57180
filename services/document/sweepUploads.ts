import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@services/shared/db";
import { removeStagedObjects, stagedUploadsIn } from "./cloudStaging";
import { removeStaged, stagingDirectory, UPLOAD_ID_PATTERN, UPLOAD_TTL_MS } from "./staging";
import { storageForBackend } from "./storage";
import type { StoragePort } from "./storage/port";

/** What one sweep removed. */
export interface UploadSweepResult {
  /** expired `uploads` rows removed with their staged files */
  expired: number;
  /** staged uploads without a row, older than 24 hours, removed */
  strays: number;
}

/**
 * Removes unfinished uploads past their expiry (the `uploads` row and the staged bytes, locally or
 * in the cloud store), and staged
 * files that no row accounts for once they are older than 24 hours (a crash between the two).
 * @throws when the database or the staging directory cannot be read.
 */
export async function sweepExpiredUploads(props: {
  db: Db;
  now?: Date;
  /** default DATA_DIR/uploads */
  directory?: string;
}): Promise<UploadSweepResult> {
  const now = props.now ?? new Date();
  const directory = props.directory ?? stagingDirectory();
  const expired = await props.db.prisma.upload.findMany({
    where: { expiresAt: { lte: now } },
    select: { id: true, stagedIn: true },
  });
  let cloud: StoragePort | undefined;
  for (const { id, stagedIn } of expired) {
    // the cloud store's objects go first: the row stays for the next sweep if they cannot
    if (stagedIn === "cloud") {
      cloud ??= await storageForBackend(props.db, "cloud");
      await removeStagedObjects(cloud, id);
    }
    await props.db.prisma.upload.deleteMany({ where: { id, expiresAt: { lte: now } } });
    if (UPLOAD_ID_PATTERN.test(id)) await removeStaged(path.join(directory, id));
  }
  return { expired: expired.length, strays: await sweepStrays(props.db, directory, now) };
}

/**
 * Uploads staged in the cloud store `storage` (under uploads/) that no row accounts for, once their
 * newest object is older than the upload lifetime (a crash between removing the row and the
 * objects); answers how many were removed. @throws when the store or the database cannot be read.
 */
export async function sweepStrayCloudUploads(props: {
  db: Db;
  storage: StoragePort;
  now?: Date;
}): Promise<number> {
  const now = props.now ?? new Date();
  const staged = await stagedUploadsIn(props.storage);
  if (staged.size === 0) return 0;
  const known = new Set(
    (
      await props.db.prisma.upload.findMany({
        where: { id: { in: [...staged.keys()] } },
        select: { id: true },
      })
    ).map((r) => r.id),
  );
  let removed = 0;
  for (const [id, newest] of staged) {
    if (known.has(id) || now.getTime() - newest < UPLOAD_TTL_MS) continue;
    await removeStagedObjects(props.storage, id);
    removed += 1;
  }
  return removed;
}

/** Staged uploads (`<id>`, `<id>.json`) without a row, older than the upload lifetime. */
async function sweepStrays(db: Db, directory: string, now: Date): Promise<number> {
  const names = await readdir(directory).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  const ids = [
    ...new Set(names.map((n) => n.replace(/\.json$/, "")).filter((n) => UPLOAD_ID_PATTERN.test(n))),
  ];
  if (ids.length === 0) return 0;
  const known = new Set(
    (await db.prisma.upload.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id),
  );
  let removed = 0;
  for (const id of ids) {
    if (known.has(id)) continue;
    const staged = path.join(directory, id);
    const modified = await newestModification([staged, `${staged}.json`]);
    if (modified !== null && now.getTime() - modified < UPLOAD_TTL_MS) continue;
    await removeStaged(staged);
    removed += 1;
  }
  return removed;
}

/** The latest mtime (ms) of the files that exist among `paths`, or null when none does. */
async function newestModification(paths: string[]): Promise<number | null> {
  const times = await Promise.all(
    paths.map((p) =>
      stat(p).then(
        (s) => s.mtimeMs,
        () => null,
      ),
    ),
  );
  const found = times.filter((t): t is number => t !== null);
  return found.length > 0 ? Math.max(...found) : null;
}
