import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { BenchReport, Metric, Scenario } from "./support";

// `make bench`: runs each bench/*.bench.ts in turn (its exported `run()`), prints a table per
// benchmark and writes bench/results/latest.json. Arguments, when given, keep only the benchmark
// files whose name contains one of them (`npm run bench -- http`). Exits non-zero when a benchmark
// fails. Project modules are imported only after logging has been silenced.

process.env.LOG_LEVEL = "silent";

const BENCH_DIR = __dirname;
const RESULTS_DIR = path.join(BENCH_DIR, "results");

interface Outcome {
  file: string;
  durationMs: number;
  report?: BenchReport;
  error?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isMetric(value: unknown): value is Metric {
  return (
    isRecord(value) &&
    typeof value.name === "string" &&
    typeof value.unit === "string" &&
    typeof value.value === "number"
  );
}

function isScenario(value: unknown): value is Scenario {
  return (
    isRecord(value) &&
    typeof value.name === "string" &&
    Array.isArray(value.metrics) &&
    value.metrics.every(isMetric)
  );
}

function isReport(value: unknown): value is BenchReport {
  return (
    isRecord(value) &&
    typeof value.name === "string" &&
    Array.isArray(value.notes) &&
    value.notes.every((n) => typeof n === "string") &&
    Array.isArray(value.scenarios) &&
    value.scenarios.every(isScenario)
  );
}

/** Formats a figure with as many decimals as its size deserves. */
function formatValue(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
}

/** A benchmark's scenarios as a text table: one row per scenario, one column per metric. */
function table(report: BenchReport): string {
  const columns: string[] = [];
  const units = new Map<string, string>();
  for (const s of report.scenarios) {
    for (const m of s.metrics) {
      if (!units.has(m.name)) columns.push(m.name);
      units.set(m.name, m.unit);
    }
  }
  const header = ["scenario", ...columns.map((c) => (units.get(c) ? `${c} (${units.get(c)})` : c))];
  const rows = report.scenarios.map((s) => [
    s.name,
    ...columns.map((c) => {
      const metric = s.metrics.find((m) => m.name === c);
      return metric ? formatValue(metric.value) : "";
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

async function runOne(file: string): Promise<Outcome> {
  const started = performance.now();
  try {
    const mod: unknown = await import(path.join(BENCH_DIR, file));
    if (!isRecord(mod) || typeof mod.run !== "function") throw new Error(`${file} exports no run()`);
    const report: unknown = await mod.run();
    if (!isReport(report)) throw new Error(`${file}: run() did not return a BenchReport`);
    return { file, durationMs: performance.now() - started, report };
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    return { file, durationMs: performance.now() - started, error };
  }
}

/**
 * Runs the benchmark files in sequence, prints their tables and writes bench/results/latest.json.
 * Sets process.exitCode to 1 when one failed.
 */
export async function main(filters: string[] = process.argv.slice(2)): Promise<void> {
  const files = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  if (files.length === 0) throw new Error(`no benchmark in ${BENCH_DIR} matches ${filters.join(", ")}`);
  const startedAt = new Date();
  const outcomes: Outcome[] = [];
  for (const file of files) {
    process.stdout.write(`\n▶ ${file}\n`);
    const outcome = await runOne(file);
    outcomes.push(outcome);
    const took = `${(outcome.durationMs / 1000).toFixed(1)} s`;
    if (outcome.report) {
      process.stdout.write(`${outcome.report.name} (${took})\n\n${table(outcome.report)}\n\n`);
      for (const note of outcome.report.notes) process.stdout.write(`  · ${note}\n`);
    } else {
      process.stdout.write(`FAILED after ${took}\n${outcome.error ?? ""}\n`);
    }
  }

  const cpus = os.cpus();
  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? "unknown",
      memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    },
    benchmarks: outcomes,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, "latest.json");
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const failed = outcomes.filter((o) => o.error !== undefined);
  process.stdout.write(
    `\n${outcomes.length - failed.length} benchmark(s) passed, ${failed.length} failed; results in ${path.relative(process.cwd(), out)}\n`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
