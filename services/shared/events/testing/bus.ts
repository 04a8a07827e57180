import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { freePort, portAnswers } from "../../net";

/** Unique stream name and subject prefix for one test, derived from this run's EVENT_STREAM and SUBJECT_PREFIX. */
export function uniqueBus(): { stream: string; prefix: string } {
  const suffix = randomBytes(4).toString("hex");
  return {
    stream: `${process.env.EVENT_STREAM ?? "PORTAL_T"}_${suffix}`,
    prefix: `${process.env.SUBJECT_PREFIX ?? "t"}${suffix}`,
  };
}

/** Deletes a test stream if it exists. */
export async function deleteStream(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(stream).catch(() => undefined);
}

/** Resolves once `check` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 8000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits a little to let unwanted deliveries show up (used to assert that none do). */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A NATS server of the test's own on a free port, to stop and start again (never the shared one). */
export interface PrivateNats {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** stops it and removes its store */
  destroy(): Promise<void>;
}

/** Prepares (does not start) a private JetStream-enabled nats-server with a store in a temp dir. */
export async function privateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(os.tmpdir(), "portal-nats-"));
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        "/usr/sbin/nats-server",
        ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDir],
        {
          stdio: "ignore",
        },
      );
      await waitFor(() => portAnswers(port), `nats-server on port ${port}`, 10_000);
    },
    stop,
    async destroy() {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
