import { startTelemetry } from "@services/shared/telemetry/start";

/**
 * The service name of a worker's traces: `worker-` and the services it runs, as its arguments or
 * WORKERS name them (`worker-email`, `worker-email,esrt-sync`, `worker-all`).
 */
export function workerServiceName(args: readonly string[], workers: string | undefined): string {
  const names = args.length > 0 ? args.join(",") : (workers ?? "").trim() || "all";
  return `worker-${names}`;
}

// Imported by services/worker.ts before anything it instruments (exported only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set; OTEL_SERVICE_NAME wins over the name made here).
startTelemetry(workerServiceName(process.argv.slice(2), process.env.WORKERS));
