import { type ChildProcess, spawn } from "node:child_process";
import { freePort, portAnswers } from "../net";

/**
 * A redis-server of a test's own on a free port, so that an outage test can kill, freeze (SIGSTOP)
 * and restart it without touching the machine's Redis that every other test uses.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Kills the server (SIGKILL) and waits until the port is closed. */
  kill(): Promise<void>;
  /** Stops the process (SIGSTOP): connections stay open and nothing is answered, as in a partition. */
  freeze(): void;
  /** Resumes a frozen server (SIGCONT). */
  thaw(): void;
  /** Starts the server again on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`private redis-server: ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts a private redis-server (Debian's `redis-server` on the PATH) on a free port of 127.0.0.1.
 * @throws Error when it does not come up within 5 s.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--loglevel",
        "warning",
      ],
      { stdio: "ignore" },
    );
    await until(() => portAnswers(port), "did not start");
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGCONT");
    running.kill("SIGKILL");
    await exited;
    await until(async () => !(await portAnswers(port)), "did not stop");
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    start,
    stop: kill,
  };
}
