import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { cloudStorageRow } from "@services/document/testing";
import { startS3rver } from "@services/shared/testing/s3rver";
import { Upload } from "tus-js-client";
import { startBenchPortal } from "./portalServer";
import { applyBenchConfig, type BenchReport, type Metric, type Scenario, teardown } from "./support";

// Issue 9's upload benchmark: a file (200 MB; BENCH_UPLOAD_MB to change) uploaded over tus
// (tus-js-client in this process, 50 MB chunks) to the gateway running in its own process (production
// mode), against `cp` of the same file on the same disk, in one run. The upload includes everything
// the portal does with the bytes: staging, sniffing, hashing and storing them under a generated key,
// and the document's transaction. Goals: at least half of cp's throughput (cp time / tus time ≥ 0.5)
// and the gateway's resident memory growing by at most 64 MB during the upload (VmRSS of its process,
// sampled every 20 ms, against its value just before, after a small warm-up upload). The same upload
// to the S3 adapter (s3rver in this process) is reported beside it.

const MEGABYTE = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const CHUNK = 50 * MEGABYTE;

/** Resident memory of process `pid` in bytes (VmRSS of /proc/<pid>/status). */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match?.[1] ? Number(match[1]) * 1024 : 0;
}

/** Samples a process's RSS every 20 ms until stopped; answers the peak. */
function sampleRss(pid: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

/** Writes `bytes` of UTF-8 text (a valid .txt) to `file`. */
async function writeTextFile(file: string, bytes: number): Promise<void> {
  const line = Buffer.from("Ledger line: 2025-01-01, 12.50 EUR, invoice 000123, ünïcödé.\n");
  const block = Buffer.concat(Array.from({ length: Math.ceil(MEGABYTE / line.length) }, () => line)).subarray(
    0,
    MEGABYTE,
  );
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += block.length) {
    const part = block.subarray(0, Math.min(block.length, bytes - written));
    if (!out.write(part)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Uploads `file` over tus; resolves with the document id the final answer names. */
function tusUpload(url: string, cookie: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(file), {
      endpoint: `${url}/api/uploads`,
      headers: { Cookie: cookie },
      metadata: { filename: path.basename(file), title: "Benchmark ledger" },
      chunkSize: CHUNK,
      retryDelays: [],
      storeFingerprintForResuming: false,
      onSuccess: ({ lastResponse }) => {
        const body = JSON.parse(lastResponse.getBody()) as { document: { id: number } };
        resolve(body.document.id);
      },
      onError: (err) => reject(err),
    });
    upload.start();
  });
}

/** Runs the upload benchmark. @throws when the portal does not start or an upload fails. */
export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  const dir = mkdtempSync(path.join(tmpdir(), "portal-bench-upload-"));
  cleanup.defer("remove the benchmark's files", async () => rmSync(dir, { recursive: true, force: true }));
  try {
    const dataDir = path.join(dir, "data");
    const { portal, db, env, signedInClient } = await startBenchPortal(cleanup, { DATA_DIR: dataDir });
    // this process seals the S3 secret as the portal will open it
    applyBenchConfig({ SESSION_SECRET: env.SESSION_SECRET ?? "", DATA_DIR: dataDir });
    await db.prisma.storageConfig.updateMany({
      data: { maxFileSize: BigInt(SIZE_MB + 10) * BigInt(MEGABYTE) },
    });

    const source = path.join(dir, `ledger-${SIZE_MB}mb.txt`);
    await writeTextFile(source, SIZE_MB * MEGABYTE);
    const expected = await sha256Of(source);
    const warmup = path.join(dir, "warmup.txt");
    await writeTextFile(warmup, MEGABYTE);
    const { cookie } = await signedInClient();

    // cp of the same file on the same disk (the copy written out before the clock stops)
    const copy = path.join(dir, "copy.txt");
    const cpStarted = performance.now();
    await promisify(execFile)("cp", [source, copy]);
    await promisify(execFile)("sync", ["-f", copy]).catch(() => undefined);
    const cpMs = performance.now() - cpStarted;
    rmSync(copy);

    const measure = async (name: string): Promise<{ scenario: Scenario; ms: number }> => {
      await tusUpload(portal.url, cookie, warmup);
      const before = rssOf(portal.pid);
      const sampler = sampleRss(portal.pid);
      const started = performance.now();
      const id = await tusUpload(portal.url, cookie, source);
      const ms = performance.now() - started;
      const peak = sampler.stop();
      const row = await db.prisma.document.findUniqueOrThrow({ where: { id } });
      if (row.sha256 !== expected)
        throw new Error(`${name}: the stored file's sha256 differs from the source's`);
      const metrics: Metric[] = [
        { name: "time", unit: "s", value: ms / 1000 },
        { name: "throughput", unit: "MB/s", value: SIZE_MB / (ms / 1000) },
        { name: "cp time / tus time", unit: "", value: cpMs / ms },
        { name: "gateway RSS growth", unit: "MB", value: (peak - before) / MEGABYTE },
        { name: "gateway RSS peak", unit: "MB", value: peak / MEGABYTE },
      ];
      return { scenario: { name, metrics }, ms };
    };

    const local = await measure("tus → local storage");

    const s3 = await startS3rver();
    cleanup.defer("stop s3rver", () => s3.stop());
    await db.prisma.storageConfig.updateMany({ data: cloudStorageRow(s3.settings) });
    const cloud = await measure("tus → S3 (s3rver)");

    const cpScenario: Scenario = {
      name: "cp (same disk)",
      metrics: [
        { name: "time", unit: "s", value: cpMs / 1000 },
        { name: "throughput", unit: "MB/s", value: SIZE_MB / (cpMs / 1000) },
      ],
    };
    const ratio = cpMs / local.ms;
    const growth = local.scenario.metrics.find((m) => m.name === "gateway RSS growth")?.value ?? Number.NaN;
    return {
      name: `Upload: ${SIZE_MB} MB over tus against cp (same disk)`,
      notes: [
        `file ${statSync(source).size} bytes of UTF-8 text; tus-js-client, ${CHUNK / MEGABYTE} MB chunks, gateway in its own process (production mode)`,
        "the tus time covers staging, sniffing, hashing, storing under a generated key and the document's transaction",
        `goal: cp time / tus time ≥ 0.5 (local: ${ratio.toFixed(2)} ${ratio >= 0.5 ? "met" : "NOT met"}); ` +
          `gateway RSS growth ≤ 64 MB (local: ${growth.toFixed(1)} MB ${growth <= 64 ? "met" : "NOT met"})`,
        "S3 is s3rver (a Node S3 server in the benchmark's process, writing to the same disk): its figure includes that server's own work",
      ],
      scenarios: [cpScenario, local.scenario, cloud.scenario],
    };
  } finally {
    await cleanup.run();
  }
}

if (require.main === module) {
  process.env.LOG_LEVEL = "silent";
  run()
    .then((report) => process.stdout.write(`${JSON.stringify(report, null, 2)}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    });
}
