import { performance } from "node:perf_hooks";
import { type BenchReport, latencyMetrics, type Scenario, startInProcessGateway, teardown } from "./support";

// Requests per second and latency of a few cheap gateway endpoints: the full middleware chain
// (request id, pino-http, metrics, security headers, sessions, Apollo) without database work. The
// load comes from concurrent fetch() calls in this same process, so client and server share one
// event loop and one CPU core.

/** Measured requests per endpoint. */
export const REQUESTS = 3000;
/** Requests in flight at once. */
export const CONCURRENCY = 20;
/** Unmeasured requests per endpoint before measuring. */
const WARM_UP_REQUESTS = 300;

interface Endpoint {
  name: string;
  path: string;
  init: RequestInit;
  /** checks one answer's body; returns what is wrong, if anything */
  check(body: string): string | undefined;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: "GET /api/server-config",
    path: "/api/server-config",
    init: { method: "GET" },
    check: (body) => (body.includes('"proAppUrl"') ? undefined : `unexpected body ${body.slice(0, 200)}`),
  },
  {
    name: "GET /healthz",
    path: "/healthz",
    init: { method: "GET" },
    check: (body) => (body.includes('"ok"') ? undefined : `unexpected body ${body.slice(0, 200)}`),
  },
  {
    name: "POST /graphql { health }",
    path: "/graphql",
    init: {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ health }" }),
    },
    check: (body) =>
      body === '{"data":{"health":"ok"}}\n' || body === '{"data":{"health":"ok"}}'
        ? undefined
        : `unexpected body ${body.slice(0, 200)}`,
  },
];

interface LoadResult {
  latencies: number[];
  wallMs: number;
  failures: number;
  firstFailure?: string;
}

/** Sends `total` requests, `concurrency` at a time, and times each one. */
async function load(
  url: string,
  endpoint: Endpoint,
  total: number,
  concurrency: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      const started = performance.now();
      try {
        const res = await fetch(url, endpoint.init);
        const body = await res.text();
        latencies.push(performance.now() - started);
        const problem = res.ok ? endpoint.check(body) : `status ${res.status}: ${body.slice(0, 200)}`;
        if (problem) {
          failures++;
          firstFailure ??= problem;
        }
      } catch (err) {
        failures++;
        firstFailure ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - started, failures, firstFailure };
}

/**
 * Measures requests/s and latency of GET /api/server-config, GET /healthz and POST /graphql
 * `{ health }` on the gateway app (createApp) listening on a free loopback port, with a scratch
 * database and a Redis session store under a key prefix of its own, all removed afterwards.
 * @throws when a backing service is missing or an endpoint answers wrongly.
 */
export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  try {
    const { base, config } = await startInProcessGateway(cleanup, {
      readiness: (db) => ({ postgres: () => db.ping() }),
    });

    const scenarios: Scenario[] = [];
    for (const endpoint of ENDPOINTS) {
      const url = `${base}${endpoint.path}`;
      const warm = await load(url, endpoint, WARM_UP_REQUESTS, CONCURRENCY);
      if (warm.failures > 0) {
        throw new Error(`${endpoint.name} failed ${warm.failures} times: ${warm.firstFailure ?? "?"}`);
      }
      const measured = await load(url, endpoint, REQUESTS, CONCURRENCY);
      if (measured.failures > 0) {
        throw new Error(
          `${endpoint.name} failed ${measured.failures} times: ${measured.firstFailure ?? "?"}`,
        );
      }
      scenarios.push({
        name: endpoint.name,
        metrics: [
          { name: "requests", unit: "", value: measured.latencies.length },
          { name: "throughput", unit: "req/s", value: measured.latencies.length / (measured.wallMs / 1000) },
          ...latencyMetrics("latency", measured.latencies),
        ],
      });
    }
    return {
      name: "http",
      notes: [
        `${REQUESTS} requests per endpoint, ${CONCURRENCY} concurrent fetch() calls (keep-alive) after ${WARM_UP_REQUESTS} ` +
          `warm-up requests; NODE_ENV=${config.NODE_ENV}; client and server share this process.`,
      ],
      scenarios,
    };
  } finally {
    await cleanup.run();
  }
}
