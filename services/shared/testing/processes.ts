import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../net";

// The portal's processes started as in production, each a process of its own (`node --import tsx
// <entry>`), for the benchmarks (bench/) and the process tests (e2e/): a gateway answering HTTP, a
// worker ready once it logs so; stopped gracefully (SIGTERM) or killed (SIGKILL).

const ROOT = path.resolve(__dirname, "../../..");

/** A server or worker process started by {@link startServer}. */
export interface ServerProcess {
  name: string;
  /** http://127.0.0.1:<port> (a worker listens on nothing there) */
  url: string;
  /** the port passed as PORT (to start it again on the same one) */
  port: number;
  pid: number;
  /** CPU time (user + system) the process has used so far, in ms (from /proc). */
  cpuMs(): number;
  /** the last 4,000 characters of its stderr (and stdout, for a worker), for a failure's message */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it has exited */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing is finished or released); resolves once it has exited */
  kill(): Promise<void>;
}

/** The runtime tree's bundle of each entry the processes start (scripts/buildServer.ts SERVER_ENTRIES). */
const BUNDLES: Record<string, string> = { "gateway/src/main.ts": "main", "services/worker.ts": "worker" };

/** A runtime tree built by {@link buildRuntime}. */
export interface BuiltRuntime {
  /** the tree's folder (server/*.js, prisma/migrations, web/dist) */
  dir: string;
  /** removes the tree */
  remove(): void;
}

/**
 * Builds the production runtime tree (`npm run build:server`: the esbuild bundles the image runs)
 * under .cache/ in the repository, where its bundles find the repository's node_modules. A process
 * started from it with `runtime` is up in a second or two, where tsx compiles the whole tree as it
 * starts (ten seconds or more on two busy cores), and it is what production runs.
 * @throws when the build fails (web/dist must be built).
 */
export async function buildRuntime(): Promise<BuiltRuntime> {
  const dir = path.join(ROOT, ".cache", "test-runtime", `${process.pid}-${Date.now().toString(36)}`);
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts/buildServer.ts"), dir],
    { cwd: ROOT, timeout: 120_000 },
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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

/** What node runs for `options.script`: its bundle in the runtime tree, or the source through tsx. */
function entryOf(options: { script: string; runtime?: BuiltRuntime }): string[] {
  if (!options.runtime) return ["--import", "tsx", path.join(ROOT, options.script)];
  const bundle = BUNDLES[options.script];
  if (!bundle) throw new Error(`${options.script} has no bundle in the runtime tree`);
  return [path.join(options.runtime.dir, "server", `${bundle}.js`)];
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
 * Starts `node --import tsx <script>` (or its bundle in `runtime`; plus BENCH_NODE_ARGS) with `env` on a free port (PORT) and waits until `readyPath`
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
  /** arguments after the script (a worker's services, say) */
  args?: string[];
  /** a tree of {@link buildRuntime}: the script's bundle there runs, with plain node */
  runtime?: BuiltRuntime;
  /** keep all of its stdout (its log) for output(), not only the last lines */
  keepLog?: boolean;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // BENCH_NODE_ARGS adds Node options to the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...nodeArgs, ...entryOf(options), ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: { ...process.env, ...options.env, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", options.readyLine || options.keepLog ? "pipe" : "ignore", "pipe"],
    },
  );
  let sawReadyLine = false;
  const readyLine = options.readyLine;
  let recent = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    recent = recent + chunk.toString();
    if (!options.keepLog) recent = recent.slice(-4000);
    if (readyLine?.test(recent.slice(-4000))) sawReadyLine = true;
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
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
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name: options.name,
    url,
    port,
    pid,
    cpuMs: () => processCpuMs(pid),
    output: () => `${stderr}${recent}`,
    stop: async () => {
      if (gone()) return;
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    },
    kill: async () => {
      if (gone()) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
