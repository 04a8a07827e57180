import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { Upload } from "@tus/utils";
import { InspectingFileStore } from "./inspectingStore";

// The staging store learns each upload's sha256 and text verdict from the bytes on their way to the
// disk, and only vouches for them when every byte passed it in order.

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "inspecting-store-"));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

async function created(store: InspectingFileStore, id: string, size: number): Promise<void> {
  await store.create(new Upload({ id, size, offset: 0, metadata: {} }));
}

/** A stream of `data` in 64 KiB pieces, as a request body arrives. */
function body(data: Buffer): Readable {
  return Readable.from(
    Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) =>
      data.subarray(i * 65536, (i + 1) * 65536),
    ),
  );
}

describe("InspectingFileStore", () => {
  it("knows the sha256 and the text verdict of an upload written in several parts", async () => {
    const store = new InspectingFileStore({ directory });
    const data = Buffer.from("Relevé de compte — ligne 1\n".repeat(20_000));
    await created(store, "a", data.length);
    const half = 250_001; // inside a multi-byte character
    expect(await store.write(body(data.subarray(0, half)), "a", 0)).toBe(half);
    expect(await store.write(body(data.subarray(half)), "a", half)).toBe(data.length);

    expect(store.takeInspection("a", data.length)).toEqual({ sha256: sha256(data), textVerdict: "ok" });
    expect(await readFile(path.join(directory, "a"))).toEqual(data);
    // taken once
    expect(store.takeInspection("a", data.length)).toBeUndefined();
  });

  it("finds NUL bytes and bytes that are not UTF-8 as they pass", async () => {
    const store = new InspectingFileStore({ directory });
    const withNul = Buffer.concat([Buffer.from("total;12\n"), Buffer.from([0]), Buffer.from("x\n")]);
    const latin1 = Buffer.from("Café;12\n", "latin1");
    await created(store, "nul", withNul.length);
    await created(store, "latin1", latin1.length);
    await store.write(body(withNul), "nul", 0);
    await store.write(body(latin1), "latin1", 0);
    expect(store.takeInspection("nul", withNul.length)?.textVerdict).toBe("nul");
    expect(store.takeInspection("latin1", latin1.length)?.textVerdict).toBe("utf8");
  });

  it("vouches for nothing it did not see from the first byte on, in order", async () => {
    const data = randomBytes(200_000);
    const first = new InspectingFileStore({ directory });
    await created(first, "b", data.length);
    await first.write(body(data.subarray(0, 100_000)), "b", 0);
    // another process (or a restart) receives the rest
    const second = new InspectingFileStore({ directory });
    await second.write(body(data.subarray(100_000)), "b", 100_000);
    expect(second.takeInspection("b", data.length)).toBeUndefined();
    // nor a probe whose bytes stopped short of the declared size
    expect(first.takeInspection("b", data.length)).toBeUndefined();
    expect(await readFile(path.join(directory, "b"))).toEqual(data);
  });

  it("drops the probe of a write that failed half way", async () => {
    const store = new InspectingFileStore({ directory });
    const data = randomBytes(300_000);
    await created(store, "c", data.length);
    const failing = new Readable({
      read() {
        this.push(data.subarray(0, 65536));
        this.destroy(new Error("connection reset"));
      },
    });
    await expect(store.write(failing, "c", 0)).rejects.toBeDefined();
    expect(store.takeInspection("c", data.length)).toBeUndefined();
  });
});
