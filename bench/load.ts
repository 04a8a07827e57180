import type { ServerProcess } from "@services/shared/testing/processes";
import autocannon from "autocannon";
import type { Metric } from "./support";

// HTTP load of the benchmarks that compare the portal with a baseline: each server runs in a process
// of its own (as in production), the load comes from autocannon in the benchmark's process, and the
// contenders are measured in alternating rounds so that both meet the same machine.

export {
  deployedNodeArgs,
  type ServerProcess,
  startServer,
} from "@services/shared/testing/processes";

/** One request of a load: what autocannon sends. */
export interface LoadRequest {
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What one round of load measured. */
export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** answers that were not 2xx, plus connection errors and timeouts */
  errors: number;
  requests: number;
  /** server CPU time per request, ms */
  cpuPerRequestMs: number;
}

/**
 * Loads `server` with `connections` concurrent connections for `seconds`, cycling through
 * `requests` (each connection sends them in order, again and again).
 */
export async function load(
  server: ServerProcess,
  requests: readonly LoadRequest[],
  options: {
    connections: number;
    seconds: number;
    /** the requests of connection `i` (overrides `requests`): e.g. each as a user of its own */
    perConnection?: (i: number) => readonly LoadRequest[];
  },
): Promise<LoadResult> {
  const cpuBefore = server.cpuMs();
  const toAutocannon = (list: readonly LoadRequest[]) =>
    list.map((r) => ({ method: r.method ?? "GET", path: r.path, headers: r.headers, body: r.body }));
  let connection = 0;
  const perConnection = options.perConnection;
  const result = await autocannon({
    url: server.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: toAutocannon(requests),
    setupClient: perConnection
      ? (client) => {
          client.setRequests(toAutocannon(perConnection(connection++)));
        }
      : undefined,
  });
  const cpu = server.cpuMs() - cpuBefore;
  const total = result.requests.total;
  return {
    requestsPerSec: total / options.seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    requests: total,
    cpuPerRequestMs: total > 0 ? cpu / total : Number.NaN,
  };
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A contender of an alternating comparison: a name and one round of its load. */
export interface Contender {
  name: string;
  round(): Promise<LoadResult>;
}

/**
 * Measures the contenders in `rounds` alternating rounds (A, B, A, B...) after one unmeasured
 * warm-up round each; answers each contender's rounds.
 */
export async function alternate(
  contenders: readonly Contender[],
  rounds: number,
): Promise<Map<string, LoadResult[]>> {
  for (const c of contenders) await c.round();
  const results = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const c of contenders) results.get(c.name)?.push(await c.round());
  }
  return results;
}

/** The median figures of some rounds as metrics. */
export function loadMetrics(rounds: readonly LoadResult[]): Metric[] {
  return [
    { name: "req/s", unit: "", value: median(rounds.map((r) => r.requestsPerSec)) },
    { name: "p50", unit: "ms", value: median(rounds.map((r) => r.p50Ms)) },
    { name: "p99", unit: "ms", value: median(rounds.map((r) => r.p99Ms)) },
    { name: "CPU/req", unit: "ms", value: median(rounds.map((r) => r.cpuPerRequestMs)) },
    { name: "errors", unit: "", value: rounds.reduce((n, r) => n + r.errors, 0) },
  ];
}
