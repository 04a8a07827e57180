import { existsSync } from "node:fs";
import path from "node:path";
import { type AppDeps, createApp } from "@gateway/app";
import { type Config, parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { connectRedis } from "@services/shared/redis";
import { createSessionStore } from "@services/shared/sessionStore";
import { testDb } from "@services/shared/testing/db";
import { listenOnLoopback } from "@services/shared/testing/loopback";

/** The built web app the browser tests drive. */
export const WEB_DIST = path.resolve(__dirname, "../../web/dist");

/** A gateway running in this process for a browser test. */
export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  config: Config;
  stop(): Promise<void>;
}

/**
 * Makes the process-wide config's PUBLIC_URL the address the test server listens at, unless the test
 * gave one: emails rendered in the process (their links, the layout's logo) then point at the server
 * the browser uses, as they point at the portal in a deployment; the frame that shows an email loads
 * its logo from there. Known only once the server listens; the app's own config is left as it is.
 */
export function servedAt(config: Config, url: string): void {
  if (!config.PUBLIC_URL) setConfig({ ...config, PUBLIC_URL: url });
}

/**
 * Starts the gateway in-process on a free loopback port, serving the built web app, with the test
 * database, a Redis session store and `env` laid over the test environment (also made the
 * process-wide config, which parts of the gateway read).
 * @throws Error when web/dist has not been built, or when a backing service does not answer.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { db?: Db; probes?: AppDeps["probes"] } = {},
): Promise<TestServer> {
  if (!existsSync(path.join(WEB_DIST, "index.html"))) {
    throw new Error(`No web build in ${WEB_DIST}: run \`npm run codegen && npm run web:build\` first`);
  }
  const config = parseConfig({ ...process.env, ...env });
  // Parts of the gateway read the process-wide config(); make it the same as the app's.
  setConfig(config);
  const redisUrl = config.REDIS_URL;
  if (!redisUrl) throw new Error("REDIS_URL is not set: run the browser tests through Jest (globalSetup)");

  const db = options.db ?? (await testDb());
  const redis = await connectRedis(redisUrl);
  const sessionStore = createSessionStore({ redis, prefix: config.REDIS_PREFIX });
  const { app, stop } = await createApp({
    config,
    db,
    sessionStore,
    readiness: {},
    webDist: WEB_DIST,
    probes: options.probes,
  });

  const server = await listenOnLoopback(app);
  servedAt(config, server.url);

  return {
    url: server.url,
    config,
    async stop() {
      await server.close();
      await stop();
      await redis.close();
    },
  };
}
