import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";

// The run's one initdb of the embedded database (PGlite), as a tarball in the run's DATA_DIR: made
// once (by globalSetup in a child process, or else by the first test that needs it) and loaded by
// every PGlite opened on a new directory after that (scripts/jest/pgliteInitdbCache.ts).

const WAIT_FOR_OTHER_MAKER_MS = 180_000;

/** Where the run keeps the tarball, or undefined outside a Jest run (no DATA_DIR). */
export function initdbTarballPath(): string | undefined {
  const runDir = process.env.DATA_DIR;
  return runDir ? path.join(runDir, "pglite-initdb.tar") : undefined;
}

function takeLock(tarball: string): boolean {
  try {
    closeSync(openSync(`${tarball}.lock`, "wx"));
    return true;
  } catch {
    return false; // another process is making it
  }
}

/**
 * Starts making the tarball in a child process (makePgliteInitdb.js) unless someone already is;
 * the child writes it, or `<tarball>.failed`.
 */
export function startMakingInitdbTarball(): ChildProcess | undefined {
  const tarball = initdbTarballPath();
  if (!tarball || !takeLock(tarball)) return undefined;
  const child = spawn(process.execPath, [path.join(__dirname, "makePgliteInitdb.js"), tarball], {
    stdio: "ignore",
  });
  child.on("error", (err) => writeFileSync(`${tarball}.failed`, err.message));
  return child;
}

/**
 * The dump of a freshly initialised cluster: made here when nobody else is making it (a lock file
 * decides), else read once the other maker has written it; undefined when it never appears.
 */
export async function initdbTarball(
  create: (options: PGliteOptions) => Promise<PGlite>,
  options: PGliteOptions = {},
): Promise<Blob | undefined> {
  const tarball = initdbTarballPath();
  if (!tarball) return undefined;
  if (existsSync(tarball)) return new Blob([readFileSync(tarball)]);
  if (takeLock(tarball)) {
    let fresh: PGlite;
    try {
      fresh = await create({ ...options, dataDir: undefined, loadDataDir: undefined });
    } catch (err) {
      writeFileSync(`${tarball}.failed`, String(err));
      throw err;
    }
    try {
      const dump = await fresh.dumpDataDir("none");
      const bytes = Buffer.from(await dump.arrayBuffer());
      writeFileSync(`${tarball}.tmp`, bytes);
      renameSync(`${tarball}.tmp`, tarball);
      return new Blob([bytes]);
    } finally {
      await fresh.close();
    }
  }
  const deadline = Date.now() + WAIT_FOR_OTHER_MAKER_MS;
  while (Date.now() < deadline) {
    if (existsSync(tarball)) return new Blob([readFileSync(tarball)]);
    if (existsSync(`${tarball}.failed`)) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}
