import type { IncomingMessage } from "node:http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { GraphQLInstrumentation } from "@opentelemetry/instrumentation-graphql";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { RedisInstrumentation } from "@opentelemetry/instrumentation-redis";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK } from "@opentelemetry/sdk-node";

// The OpenTelemetry Node SDK as the portal runs it: traces only (no metrics, no logs: /metrics is
// Prometheus's and the logs go to stdout), exported in batches over OTLP/HTTP (JSON) to
// OTEL_EXPORTER_OTLP_ENDPOINT, with the instrumentations of what a request touches. Loaded by
// ./start.ts only when tracing is on: nothing here is read while it is off.

/** Probes that answer every few seconds: no trace of their own. */
const UNTRACED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

function untraced(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  return UNTRACED_PATHS.has(q === -1 ? url : url.slice(0, q));
}

/**
 * The SDK of one process, named `serviceName` (OTEL_SERVICE_NAME wins when set). Database, Redis and
 * outgoing HTTP calls make spans only inside a trace: the relay's, the senders' and the dispatchers'
 * polling loops make none of their own.
 */
export function createSdk(serviceName: string): NodeSDK {
  return new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName }),
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: untraced,
        requireParentforOutgoingSpans: true,
      }),
      // middleware and the route's handler; not the routers a request is matched against on its way
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.ROUTER] }),
      new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      // the command's name only: its keys hold session ids and addresses (rate limits)
      new RedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // log lines written inside a span carry trace_id and span_id; the lines stay on stdout
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
}
