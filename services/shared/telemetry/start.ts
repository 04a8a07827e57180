import { diag } from "@opentelemetry/api";
import { markTracingEnabled } from "./index";

// Starting and stopping tracing in a process entry. Imported by the entries' first lines
// (gateway/src/telemetry.ts, services/workerTelemetry.ts) so that the SDK's instrumentations are
// registered before Express, pg, Redis, GraphQL and pino are loaded: an instrumentation patches a
// module as it is required, never one loaded before it.

type Sdk = ReturnType<typeof import("./sdk").createSdk>;

let sdk: Sdk | undefined;

/** Whether OTEL_EXPORTER_OTLP_ENDPOINT asks for traces (an empty value does not). */
export function telemetryRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").trim() !== "";
}

/**
 * Starts the OpenTelemetry SDK for this process, named `serviceName`, when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise does nothing and loads nothing (the SDK's packages
 * are required only here). Call it before any instrumented module is loaded. A second call does
 * nothing.
 */
export function startTelemetry(serviceName: string): void {
  if (sdk || !telemetryRequested()) return;
  // required, not imported: the SDK and its instrumentations load only when tracing is on
  const { createSdk } = require("./sdk") as typeof import("./sdk");
  sdk = createSdk(serviceName);
  sdk.start();
  markTracingEnabled();
}

/**
 * Exports the spans still waiting and stops the SDK (at a process's shutdown), within `timeoutMs`;
 * never throws.
 */
export async function stopTelemetry(timeoutMs = 3000): Promise<void> {
  const running = sdk;
  if (!running) return;
  sdk = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    running.shutdown().catch((err: unknown) => diag.warn("tracing did not shut down cleanly", err)),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}
