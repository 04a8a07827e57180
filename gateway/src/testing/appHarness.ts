import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isolatedDb } from "@services/document/testing";
import { type Config, config, parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { freePort } from "@services/shared/net";
import { connectRedis, type RedisClient } from "@services/shared/redis";
import { PortalRedisStore } from "@services/shared/sessionStore";
import { testDb } from "@services/shared/testing/db";
import type { Express } from "express";
import { type AppDeps, createApp } from "../app";
import { SESSION_COOKIE } from "../http/session";

// Helpers for gateway tests: a real app on this run's database and Redis, a fake built web app,
// and a signed session cookie.

/** This run's configuration (set by Jest's globalSetup), with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...parseConfig(process.env), ...overrides };
}

/** A connected Redis client for this run. @throws when REDIS_URL is unset or Redis does not answer. */
export async function testRedis(): Promise<RedisClient> {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error("REDIS_URL is unset: run the tests with `npx jest`");
  return connectRedis(url);
}

/** A session store on `client` under this run's key prefix. */
export function redisSessionStore(client: RedisClient, cfg: Config): PortalRedisStore {
  return new PortalRedisStore({ client, prefix: `${cfg.REDIS_PREFIX}sess:` });
}

/** A directory that looks like a Vite build: index.html and one hashed asset. Removed by `remove()`. */
export function fakeWebDist(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "portal-web-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), '<!doctype html><div id="root">portal app</div>');
  writeFileSync(path.join(dir, "assets", "x-abc123.js"), "console.log('app');");
  writeFileSync(path.join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Builds the app with a real database and the given dependencies (defaults: checks that pass). */
export async function buildTestApp(deps: Partial<AppDeps> & Pick<AppDeps, "sessionStore">) {
  const db = await testDb();
  return createApp({
    config: deps.config ?? testConfig(),
    db: deps.db ?? db,
    readiness: deps.readiness ?? { postgres: () => db.ping() },
    sessionStore: deps.sessionStore,
    metrics: deps.metrics,
    webDist: deps.webDist,
  });
}

/** An app of {@link buildTestApp} with its sessions on this run's Redis, and that client. */
export interface RedisApp {
  app: Express;
  redis: RedisClient;
  /** the app's configuration */
  config: Config;
  /** stops the app and closes the Redis client */
  stop(): Promise<void>;
}

/**
 * Builds the app with its sessions on this run's Redis and the dependencies `depsOf` gives for that
 * client (a readiness check may ping it).
 * @throws when REDIS_URL is unset or Redis does not answer.
 */
export async function buildRedisApp(
  depsOf: (redis: RedisClient) => Partial<Omit<AppDeps, "sessionStore">> = () => ({}),
): Promise<RedisApp> {
  const redis = await testRedis();
  const deps = depsOf(redis);
  const cfg = deps.config ?? testConfig();
  const built = await buildTestApp({ ...deps, config: cfg, sessionStore: redisSessionStore(redis, cfg) });
  return {
    app: built.app,
    redis,
    config: cfg,
    async stop() {
      await built.stop();
      redis.destroy();
    },
  };
}

/** A cookie header carrying session id `sid` signed like express-session does. */
export function signedSessionCookie(sid: string, secret: string): string {
  const mac = createHmac("sha256", secret).update(sid).digest("base64").replace(/=+$/, "");
  return `${SESSION_COOKIE}=${encodeURIComponent(`s:${sid}.${mac}`)}`;
}

/** A TCP port on 127.0.0.1 that nothing listens on. */
export const closedPort = freePort;

/** A real app on a database of the test file's own, this run's Redis and a fake web build. */
export interface IsolatedApp {
  app: Express;
  db: Db;
  /** stops the app, closes Redis, removes the web build, drops the database, restores the settings */
  close(): Promise<void>;
}

/**
 * Starts an {@link IsolatedApp}; `settings` override the process's configuration (config()) until
 * close().
 */
export async function isolatedApp(options: { settings?: Partial<Config> } = {}): Promise<IsolatedApp> {
  const saved = config();
  if (options.settings) setConfig({ ...saved, ...options.settings });
  const isolated = await isolatedDb();
  const redis = await testRedis();
  const cfg = testConfig();
  const web = fakeWebDist();
  const created = await createApp({
    config: cfg,
    db: isolated.db,
    readiness: {},
    sessionStore: redisSessionStore(redis, cfg),
    webDist: web.dir,
    redis,
  });
  return {
    app: created.app,
    db: isolated.db,
    async close() {
      await created.stop();
      redis.destroy();
      web.remove();
      await isolated.drop();
      if (options.settings) setConfig(saved);
    },
  };
}
