import "@services/shared/nodeGuard";
import "dotenv/config";
// tracing first: its instrumentations patch the modules imported after it
import "./workerTelemetry";
import { parseConfig, setConfig } from "@services/shared/config";
import { logger } from "@services/shared/logger";
import { startRuntime } from "@services/shared/runtime";
import { stopTelemetry } from "@services/shared/telemetry/start";
import { isServiceName, workloadFor } from "./registry";

/**
 * A worker process for one or more services (`npm run worker -- email`): it runs their event
 * consumers and, when RELAY=1, the outbox relay, on the configured PostgreSQL and NATS. A worker
 * never falls back to the embedded default.
 */
async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const cfg = parseConfig(names.length > 0 ? { ...process.env, WORKERS: names.join(",") } : process.env);
  setConfig(cfg);
  const log = logger("worker");
  for (const name of names) if (!isServiceName(name)) throw new Error(`unknown service "${name}"`);
  const runtime = await startRuntime(cfg, {
    allowEmbedded: false,
    ...workloadFor(cfg.WORKERS),
    relay: cfg.RELAY,
  });
  // the stream, subject prefix and Redis prefix derived from the deployment, where left unset
  setConfig(runtime.config);
  log.info({ workers: cfg.WORKERS, relay: cfg.RELAY }, "worker started");
  const stop = async (signal: string) => {
    log.info({ signal }, "worker stopping");
    await runtime.close();
    await stopTelemetry();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
