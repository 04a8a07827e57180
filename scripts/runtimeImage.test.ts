import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectPostgres } from "@services/shared/db";
import { freePort } from "@services/shared/net";
import { scratchDatabase } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";

// The production image's contents, without Docker (issue 20 §3): the runtime tree is built as the
// Dockerfile builds it (`npm run build:server -- <dir> --install`: compiled bundles, the files read
// at run time, production packages installed from the lockfile) into a temporary folder, checked
// for what must not be there, and started in production mode on the machine's services, where a
// user signs in. The folder lies outside the repository, so nothing resolves from its node_modules.

const root = path.resolve(__dirname, "..");

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const rootPackage = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageJson;

/** Every file under `dir`, relative to it, skipping node_modules. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules") return [];
    const rel = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), rel) : [rel];
  });
}

/** The version of each package a lockfile holds, by its folder (`node_modules/x`). */
function lockedVersions(file: string): Map<string, string | undefined> {
  const lock = JSON.parse(readFileSync(file, "utf8")) as { packages: Record<string, { version?: string }> };
  return new Map(
    Object.entries(lock.packages)
      .filter(([folder]) => folder !== "")
      .map(([folder, entry]) => [folder, entry.version]),
  );
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs `node <script> ...args` in the tree with `env` only (no tsx, no repository on any path). */
function run(tree: string, args: string[], env: Record<string, string>): Started {
  let output = "";
  const child = spawn(process.execPath, args, { cwd: tree, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves once `started`'s output matches `pattern`. @throws when it exits first or after `timeoutMs`. */
async function waitForOutput(started: Started, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(started.output())) {
    if (started.child.exitCode !== null) {
      throw new Error(`exited with ${started.child.exitCode}:\n${started.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the production image's runtime tree, built and started without Docker", () => {
  const tree = mkdtempSync(path.join(os.tmpdir(), "portal-runtime-"));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-runtime-data-"));
  let env: Record<string, string>;

  beforeAll(() => {
    // the Dockerfile's build step, into the temporary folder
    execFileSync("npm", ["run", "--silent", "build:server", "--", tree, "--install"], {
      cwd: root,
      stdio: "pipe",
    });
    env = {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      REDIS_URL: process.env.REDIS_URL ?? "",
      NATS_URL: process.env.NATS_URL ?? "",
      // under this run's names, which its teardown removes
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}image:`,
      EVENT_STREAM: `${process.env.EVENT_STREAM}_IMAGE`,
      SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX}image`,
      ESRT_STREAM: `${process.env.ESRT_STREAM}_IMAGE`,
      ESRT_SUBJECT_PREFIX: `${process.env.ESRT_SUBJECT_PREFIX}image`,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      PRO_APP_URL: "https://pro.example.com",
      DATA_DIR: dataDir,
    };
  }, 240_000);

  afterAll(() => {
    rmSync(tree, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("holds compiled JavaScript, the migrations and the built web app: no source, test or source map", () => {
    const files = filesUnder(tree);
    expect(files.filter((file) => /\.(tsx?|mts|cts)$|\.test\.|\.map$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith("server/")).sort()).toEqual(
      ["admin-password.js", "main.js", "migrate.js", "seed.js", "worker.js"].map((f) => `server/${f}`),
    );
    const others = files.filter(
      (file) =>
        !file.startsWith("server/") &&
        !file.startsWith("web/dist/") &&
        !/^prisma\/migrations\/[^/]+\/migration\.sql$|^prisma\/migrations\/migration_lock\.toml$/.test(file),
    );
    expect(others.sort()).toEqual(["package-lock.json", "package.json"]);
    expect(files).toContain("web/dist/index.html");
    // no test module or test helper was compiled into a bundle (esbuild names each module it holds)
    for (const bundle of readdirSync(path.join(tree, "server"))) {
      const modules = [
        ...readFileSync(path.join(tree, "server", bundle), "utf8").matchAll(/^\/\/ (\S+\.tsx?)$/gm),
      ];
      expect(modules.length).toBeGreaterThan(0);
      expect(
        modules.map(([, file]) => file).filter((file) => /\.test\.|\/testing\//.test(file ?? "")),
      ).toEqual([]);
    }
  });

  it("installs production packages only, at the lockfile's versions", () => {
    const installed = (name: string) => existsSync(path.join(tree, "node_modules", name, "package.json"));
    // type declarations (@types/*) come with some production packages; no tool does
    const devTools = Object.keys(rootPackage.devDependencies).filter((name) => !name.startsWith("@types/"));
    expect(devTools).toEqual(expect.arrayContaining(["tsx", "typescript", "jest", "vite", "prisma"]));
    expect(devTools.filter(installed)).toEqual([]);
    expect(["esbuild", "@swc/core"].filter(installed)).toEqual([]);
    // the web app's packages are compiled into web/dist
    expect(
      ["react", "react-dom", "@blueprintjs/core", "@apollo/client", "pdfjs-dist"].filter(installed),
    ).toEqual([]);
    const runtime = JSON.parse(readFileSync(path.join(tree, "package.json"), "utf8")) as Partial<PackageJson>;
    expect(runtime.devDependencies).toBeUndefined();
    for (const [name, range] of Object.entries(runtime.dependencies ?? {})) {
      expect({ name, range }).toEqual({ name, range: rootPackage.dependencies[name] });
      expect({ name, installed: installed(name) }).toEqual({ name, installed: true });
    }
    const locked = lockedVersions(path.join(root, "package-lock.json"));
    const changed = [...lockedVersions(path.join(tree, "package-lock.json"))].filter(
      ([folder, version]) => locked.get(folder) !== version,
    );
    expect(changed).toEqual([]);
  });

  it("migrates, starts in production on the machine's services, serves the web app and signs a user in", async () => {
    const database = await scratchDatabase();
    const port = await freePort();
    const withDb = { ...env, DATABASE_URL: database.url, PORT: String(port) };
    let gateway: Started | undefined;
    try {
      // the operator's `npm run db:migrate` in the image
      const migrate = run(tree, ["server/migrate.js"], withDb);
      expect(await migrate.exited).toBe(0);
      expect(migrate.output()).toMatch(/applied \d+ migration\(s\)/);

      gateway = run(tree, ["server/main.js"], withDb);
      await waitForOutput(gateway, /portal listening on/, 45_000);
      const url = `http://127.0.0.1:${port}`;
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: "ready",
        modes: { database: "postgres", sessions: "redis", events: "jetstream" },
      });

      // the built web app, its assets, and no source map
      const page = await fetch(`${url}/dashboard`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<div id="root">');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain("javascript");
      expect((await fetch(`${url}${script}.map`)).status).toBe(404);
      // production: /metrics off without its token
      expect((await fetch(`${url}/metrics`)).status).toBe(404);

      // the production headers: a CSP without inline script or style, HSTS only over HTTPS
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toMatch(/(^|;)style-src 'self'(;|$)/);
      expect(csp).not.toContain("unsafe-inline");
      expect(page.headers.get("strict-transport-security")).toBeNull();
      const viaProxy = await fetch(`${url}/dashboard`, { headers: { "X-Forwarded-Proto": "https" } });
      expect(viaProxy.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");

      // a client (an administrator may have to give a second factor in production)
      const db = await connectPostgres(database.url);
      const user = await createUser(db, { userType: "client" }).finally(() => db.close());
      const login = await fetch(`${url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ login: user.username, password: TEST_PASSWORD }),
      });
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ username: user.username, userType: "client" });
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith("portal.sid="))
        ?.split(";")[0];
      expect(cookie).toBeDefined();
      const me = await fetch(`${url}/api/user`, { headers: { cookie: cookie ?? "" } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ username: user.username });

      gateway.child.kill("SIGTERM");
      expect(await gateway.exited).toBe(0);
      expect(gateway.output()).not.toMatch(/\n\s+at /);
    } finally {
      if (gateway?.child.exitCode === null) gateway.child.kill("SIGKILL");
      await database.drop();
    }
  }, 90_000);

  it("runs a service worker from its bundle", async () => {
    const database = await scratchDatabase();
    const worker = run(tree, ["server/worker.js", "email"], { ...env, DATABASE_URL: database.url });
    try {
      await waitForOutput(worker, /worker started/);
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
    } finally {
      if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
      await database.drop();
    }
  }, 60_000);
});

describe("the Dockerfile", () => {
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? "";

  it("builds the runtime tree with the command the test above runs", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toContain("npm run build:server -- dist/runtime --install");
  });

  it("runs the runtime stage as a non-root user owning its data folder, checked on /readyz", () => {
    const user = /^USER (\S+)$/m.exec(runtime)?.[1];
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime)?.[1];
    expect(dataDir).toBe("/app/data");
    expect(runtime).toContain(`chown ${user}:${user} ${dataDir}`);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/readyz/m);
    expect(runtime).toMatch(/^CMD \["node", "server\/main\.js"\]$/m);
  });

  it("copies only the runtime tree into the runtime stage: no source, no toolchain", () => {
    const copies = [...runtime.matchAll(/^(COPY|ADD) (.+)$/gm)].map(([, , args]) => args);
    expect(copies.length).toBeGreaterThan(0);
    for (const args of copies) expect(args).toMatch(/^--from=build \/app\/dist\/runtime\/ \.\/$/);
    expect(runtime).not.toMatch(/npm (install|ci)\b/);
  });
});
