import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@services/shared/net";
import { scratchDatabase } from "@services/shared/testing/db";

// `make start` ends in `npm run start`, i.e. this process entry. These tests run it as a real child
// process, once on the machine's services and once on the embedded default.

const root = path.resolve(__dirname, "..");
// the same command as `npm run start`
const entry = ["--import", "tsx", "gateway/src/main.ts"];

interface Started {
  child: ChildProcess;
  output: () => string;
  url: string;
}

/** How long a start may take before the test gives up. */
const READY_WITHIN_MS = 100_000;

async function startPortal(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  // generous: the embedded start boots PGlite and applies every migration, which takes a loaded
  // 2-core CI machine far longer than a quiet one (the test asserts that it starts, not how fast)
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/readyz`).catch(() => undefined);
    if (ready?.status === 200) return { child, output: () => output, url };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`portal did not become ready within ${READY_WITHIN_MS / 1000} s:\n${output}`);
}

async function stopPortal(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once("exit", (code) => resolve(code)));
  started.child.kill("SIGTERM");
  return exited;
}

describe("the portal process (npm run start)", () => {
  it("serves the shell on the machine's services, migrating and seeding an empty database", async () => {
    const db = await scratchDatabase();
    const started = await startPortal({
      DATABASE_URL: db.url,
      EVENT_STREAM: `${process.env.EVENT_STREAM}_START`,
      SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX}start`,
      ADMIN_EMAIL: "owner@portal.localhost",
      ADMIN_PASSWORD: "Owner-pass-2026!",
    });
    try {
      const ready = (await (await fetch(`${started.url}/readyz`)).json()) as {
        checks: Record<string, string>;
        modes: Record<string, string>;
      };
      expect(ready.checks).toEqual({ database: "ok", sessions: "ok", events: "ok" });
      expect(ready.modes).toEqual({ database: "postgres", sessions: "redis", events: "jetstream" });
      expect(started.output()).toContain(
        "backing services: database=postgres sessions=redis events=jetstream",
      );
      expect(started.output()).toContain("applied migrations");

      const page = await fetch(`${started.url}/dashboard`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

      const config = (await (await fetch(`${started.url}/api/server-config`)).json()) as { port: number };
      expect(config.port).toBe(Number(new URL(started.url).port));
    } finally {
      expect(await stopPortal(started)).toBe(0);
      await db.drop();
    }
  }, 120_000);

  it("starts on the embedded default with EMBEDDED=1 and works the same for a single user", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-embedded-"));
    const started = await startPortal({ EMBEDDED: "1", DATA_DIR: dataDir });
    try {
      expect(started.output()).toContain(
        "backing services: database=embedded sessions=memory events=in-process",
      );
      expect(started.output()).toMatch(/generated password \S+ — it is shown only this once/);
      const ready = (await (await fetch(`${started.url}/readyz`)).json()) as Record<string, unknown>;
      expect(ready).toEqual({
        status: "ready",
        checks: { database: "ok", sessions: "ok", events: "ok" },
        modes: { database: "embedded", sessions: "memory", events: "in-process" },
      });
      const graphql = await fetch(`${started.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ health serverConfig { environment } }" }),
      });
      expect(await graphql.json()).toEqual({
        data: { health: "ok", serverConfig: { environment: "development" } },
      });
      expect((await fetch(`${started.url}/no-such-page`)).status).toBe(200);
    } finally {
      expect(await stopPortal(started)).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses to start on a bad setting, naming the variable", async () => {
    const child = spawn(process.execPath, entry, {
      cwd: root,
      env: { ...process.env, PORT: "eighty" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT: Invalid input: expected number, received NaN (got "eighty")');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
