import { startTelemetry } from "@services/shared/telemetry/start";

// Imported by gateway/src/main.ts before anything it instruments: traces of this process are named
// "gateway" (OTEL_SERVICE_NAME wins), and exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
startTelemetry("gateway");
