import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, opendir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { StorageNotFoundError, type StoragePort, type StoredObjectInfo } from "./port";

// The local adapter: each object is a file under one root directory (by default
// DATA_DIR/documents), at the path its key names. A key is checked before it touches the disk, so no
// key reaches outside the root. Writes go to a temporary file beside the target, are flushed to disk
// and then renamed over it: a reader sees the whole object or none. list() shows such a temporary
// file too (".<name>.<random>.tmp", a key no document ever has), so the orphan sweep removes one a
// crash left behind.

/** A key that is not a relative path inside the store (absolute, "..", backslash, NUL, empty part). */
export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key ${JSON.stringify(key)}`);
    this.name = "InvalidStorageKeyError";
  }
}

const TEMP_SUFFIX = ".tmp";

/**
 * The parts of a relative key ("documents/2026/11/<uuid>" → its segments).
 * @throws InvalidStorageKeyError for anything that could leave the root or name a directory.
 */
function keyParts(key: string, { allowTrailingSlash = false } = {}): string[] {
  if (key.includes("\0") || key.includes("\\") || key.startsWith("/") || path.isAbsolute(key)) {
    throw new InvalidStorageKeyError(key);
  }
  const parts = key.split("/");
  if (allowTrailingSlash && parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.some((p) => p === "" || p === "." || p === "..")) throw new InvalidStorageKeyError(key);
  return parts;
}

// by shape, not instanceof: errors from Node's internals may come from another realm (Jest)
function isNodeError(err: unknown, code: string): boolean {
  return typeof err === "object" && err !== null && (err as NodeJS.ErrnoException).code === code;
}

/** fsync of a directory, so a rename in it survives a crash (not every platform allows it). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch (err) {
    if (!isNodeError(err, "EINVAL") && !isNodeError(err, "EPERM") && !isNodeError(err, "EISDIR")) throw err;
  } finally {
    await handle.close();
  }
}

/**
 * The storage port over a directory: `root` (created on the first write). Keys are relative paths;
 * any other key makes every method throw InvalidStorageKeyError.
 */
export function createLocalStorage(root: string): StoragePort {
  const base = path.resolve(root);

  function fileOf(key: string): string {
    const file = path.join(base, ...keyParts(key));
    // belt and braces: the checked key cannot leave the root, and this proves it
    if (!file.startsWith(base + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  }

  async function openObject(key: string) {
    try {
      const handle = await open(fileOf(key), "r");
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        throw new StorageNotFoundError(key);
      }
      return { body: handle.createReadStream(), size: info.size };
    } catch (err) {
      if (isNodeError(err, "ENOENT") || isNodeError(err, "ENOTDIR") || isNodeError(err, "EISDIR")) {
        throw new StorageNotFoundError(key);
      }
      throw err;
    }
  }

  async function* walk(dir: string, prefix: string): AsyncGenerator<StoredObjectInfo> {
    let entries: string[];
    try {
      const handle = await opendir(dir);
      entries = [];
      for await (const entry of handle) entries.push(entry.name);
    } catch (err) {
      if (isNodeError(err, "ENOENT") || isNodeError(err, "ENOTDIR")) return;
      throw err;
    }
    entries.sort();
    for (const name of entries) {
      const file = path.join(dir, name);
      const key = path.relative(base, file).split(path.sep).join("/");
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(file);
      } catch (err) {
        if (isNodeError(err, "ENOENT")) continue; // removed meanwhile
        throw err;
      }
      if (info.isDirectory()) {
        // only descend where keys starting with the prefix can be
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(file, prefix);
      } else if (info.isFile() && key.startsWith(prefix)) {
        yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }

  return {
    backend: "local",

    async put(key, body) {
      const file = fileOf(key);
      const dir = path.dirname(file);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
      try {
        // flush: the file is fsynced before it is closed
        await pipeline(body, createWriteStream(temp, { flags: "wx", mode: 0o600, flush: true }));
        await rename(temp, file);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      await syncDirectory(dir);
    },

    get: openObject,

    async download(key) {
      const { body, size } = await openObject(key);
      return { kind: "stream", body, size };
    },

    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (err) {
        if (!isNodeError(err, "ENOENT")) throw err;
      }
    },

    list(prefix) {
      if (prefix !== "") keyParts(prefix, { allowTrailingSlash: true });
      return walk(base, prefix);
    },
  };
}
