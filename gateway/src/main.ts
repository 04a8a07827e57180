import "@services/shared/nodeGuard";
import "dotenv/config";
// tracing first: its instrumentations patch the modules imported after it
import "./telemetry";
import type { Server } from "node:http";
import { workloadFor } from "@services/registry";
import { seed } from "@services/seed";
import { ConfigError, parseConfig, setConfig } from "@services/shared/config";
import { logger } from "@services/shared/logger";
import { BackingServiceError, startRuntime } from "@services/shared/runtime";
import { stopTelemetry } from "@services/shared/telemetry/start";
import { createApp } from "./app";

/**
 * The portal's process entry (`make start`): resolves the backing services (machine services or the
 * embedded default) and the deployment's names, migrates and seeds (saying how to set a new admin
 * password when the admin exists), starts the outbox relay and the service workers named by WORKERS,
 * and serves HTTP on PORT until SIGTERM or SIGINT.
 */
async function main(): Promise<void> {
  const given = parseConfig();
  setConfig(given);
  const log = logger("main");

  const runtime = await startRuntime(given, {
    allowEmbedded: true,
    ...workloadFor(given.WORKERS),
    relay: given.RELAY,
  });
  // the stream, subject prefix and Redis prefix derived from the deployment, where left unset
  const cfg = runtime.config;
  setConfig(cfg);
  await seed(runtime.db, cfg);

  const { app, stop } = await createApp({
    config: cfg,
    db: runtime.db,
    sessionStore: runtime.sessionStore,
    redis: runtime.redis,
    deployment: runtime.deployment,
    readiness: runtime.readiness,
    metrics: { consumerLag: runtime.consumerLag, droppedEvents: runtime.droppedEvents },
    probes: { readiness: runtime.readiness, transport: runtime.transport },
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(cfg.PORT, cfg.HOST, () => resolve(s));
    s.once("error", reject);
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  log.info({ port: cfg.PORT, modes: runtime.modes }, `portal listening on http://localhost:${cfg.PORT}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    log.debug("http server closed");
    await stop();
    log.debug("graphql stopped");
    await runtime.close();
    log.debug("backing services closed");
    await stopTelemetry();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof BackingServiceError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(
      `portal failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exit(1);
});
