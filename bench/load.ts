import type { ServerProcess } from "@services/shared/testing/processes";
import autocannon from "autocannon";
import type { Metric } from "./support";

// HTTP load of the benchmarks that compare the portal with a baseline: each server runs in a process
// of its own (as in production), the load comes from autocannon in the benchmark's process, and the
// contenders are measured in alternating rounds so that both meet the same machine.

<<<<<<< HEAD
const ROOT = path.resolve(__dirname, "..");

/** A server process under load. */
export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** CPU time (user + system) the process has used so far, in ms (from /proc). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * The Node options the portal's processes run with as deployed: those of `npm run start` in
 * package.json (docker-compose.yml and the Dockerfile run the gateway and the workers through it).
 */
export function deployedNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = (pkg.scripts.start ?? "").split(/\s+/);
  // the shell's ${NAME:-default}, as sh expands it for npm
  const expand = (word: string) =>
    word.replace(
      /\$\{(\w+):-([^}]*)\}/g,
      (_, name: string, fallback: string) => process.env[name] || fallback,
    );
  return words
    .slice(1, words.indexOf("--import"))
    .filter((w) => w.startsWith("--"))
    .map(expand);
}

/** CPU time of process `pid` in ms: utime + stime of /proc/<pid>/stat (clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // the command name may hold spaces: fields are counted after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) * 10;
}

/**
 * Starts `node --import tsx <script>` (plus BENCH_NODE_ARGS) with `env` on a free port (PORT) and waits until `readyPath`
 * answers 200. Its output is dropped, as a log shipper would take it away in production, except
 * the last lines of stderr, shown when it fails to start.
 * @throws Error when it exits or does not answer within `timeoutMs`.
 */
export async function startServer(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  readyPath?: string;
  /** for a process without HTTP (a worker): ready once a line of its output matches */
  readyLine?: RegExp;
  timeoutMs?: number;
  /** the port it listens on (default: a free one), passed as PORT */
  port?: number;
  /** Node options before the script (e.g. {@link deployedNodeArgs}) */
  nodeArgs?: string[];
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // BENCH_NODE_ARGS adds Node options to the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...nodeArgs, "--import", "tsx", path.join(ROOT, options.script)],
    {
      cwd: ROOT,
      env: { ...process.env, ...options.env, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", options.readyLine ? "pipe" : "ignore", "pipe"],
    },
  );
  let sawReadyLine = false;
  const readyLine = options.readyLine;
  if (readyLine) {
    let recent = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      recent = (recent + chunk.toString()).slice(-4000);
      if (readyLine.test(recent)) sawReadyLine = true;
    });
  }
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? Number(process.env.BENCH_START_TIMEOUT_MS ?? 60_000));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}: ${stderr}`);
    if (readyLine) {
      if (sawReadyLine) break;
    } else {
      try {
        const res = await fetch(`${url}${options.readyPath ?? "/healthz"}`, {
          signal: AbortSignal.timeout(1000),
        });
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pid = child.pid ?? 0;
  return {
    name: options.name,
    url,
    pid,
    cpuMs: () => processCpuMs(pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}
=======
export {
  deployedNodeArgs,
  type ServerProcess,
  startServer,
} from "@services/shared/testing/processes";
>>>>>>> scale

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
