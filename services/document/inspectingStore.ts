import { createHash, type Hash } from "node:crypto";
import type http from "node:http";
import { pipeline, type Readable, Transform } from "node:stream";
import { FileStore } from "@tus/file-store";
import { TextCheck, type TextVerdict } from "./sniff";

// The staging area's tus file store, which also looks at the bytes as they arrive: their sha256 and
// the text check (UTF-8, no NUL) are computed on the way to the disk, so finishing an upload need
// not read the staged file again. This holds only while the upload's bytes arrive in order in this
// process; after a restart, on another gateway process or after a failed write, the inspection is
// dropped and finishUpload reads the file as before.

/** What was learnt from every byte of an upload while it arrived. */
export interface Inspection {
  sha256: string;
  textVerdict: TextVerdict;
}

/** A probe not written to for this long belongs to an abandoned upload (the sweep's 24 hours). */
const ABANDONED_MS = 24 * 60 * 60 * 1000;

interface Probe {
  /** bytes seen so far, which is where the next write must start */
  offset: number;
  touchedAt: number;
  hash: Hash;
  text: TextCheck;
}

export class InspectingFileStore extends FileStore {
  private readonly probes = new Map<string, Probe>();
  private readonly onRemove: ((id: string) => Promise<void>) | undefined;

  /**
   * `onRemove` runs once a terminated upload's bytes are gone, before tus answers the DELETE (the
   * gateway forgets the upload's row there, so the 204 means it is gone).
   */
  constructor(
    options: ConstructorParameters<typeof FileStore>[0] & { onRemove?: (id: string) => Promise<void> },
  ) {
    const { onRemove, ...rest } = options;
    super(rest);
    this.onRemove = onRemove;
  }

  override async write(
    readable: http.IncomingMessage | Readable,
    id: string,
    offset: number,
  ): Promise<number> {
    const known = this.probes.get(id);
    const probe =
      known?.offset === offset
        ? known
        : offset === 0
          ? { offset: 0, touchedAt: 0, hash: createHash("sha256"), text: new TextCheck() }
          : undefined;
    if (!probe) {
      this.probes.delete(id);
      return super.write(readable, id, offset);
    }
    if (probe !== known) this.forgetAbandoned();
    probe.touchedAt = Date.now();
    this.probes.set(id, probe);
    let seen = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        probe.hash.update(chunk);
        probe.text.update(chunk);
        callback(null, chunk);
      },
    });
    // errors of the request stream reach the tap (and so the file store's pipeline)
    const tapped = pipeline(readable, tap, () => undefined);
    try {
      const next = await super.write(tapped, id, offset);
      // the file store wrote exactly what passed the tap; anything else and the probe is unsure
      if (next === offset + seen) probe.offset = next;
      else this.probes.delete(id);
      return next;
    } catch (err) {
      this.probes.delete(id);
      throw err;
    }
  }

  /**
   * What was learnt from upload `id`'s bytes, if all `size` of them passed through this process in
   * order; then forgets it. Undefined otherwise (the caller reads the staged file).
   */
  takeInspection(id: string, size: number): Inspection | undefined {
    const probe = this.probes.get(id);
    this.probes.delete(id);
    if (!probe || probe.offset !== size) return undefined;
    return { sha256: probe.hash.digest("hex"), textVerdict: probe.text.finish() };
  }

  /** Drops the probes of uploads nobody has continued for a day (their files are swept too). */
  private forgetAbandoned(): void {
    const before = Date.now() - ABANDONED_MS;
    for (const [id, probe] of this.probes) if (probe.touchedAt < before) this.probes.delete(id);
  }

  /** Forgets upload `id` (cancelled, expired or refused). */
  forget(id: string): void {
    this.probes.delete(id);
  }

  override async remove(id: string): Promise<void> {
    this.probes.delete(id);
    await super.remove(id);
    await this.onRemove?.(id);
  }
}
