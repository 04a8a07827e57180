import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

// An OTLP/HTTP trace receiver of a test's own (the JSON encoding: OTEL_EXPORTER_OTLP_PROTOCOL
// http/json, which the portal's exporter speaks): it keeps every span the portal's processes export
// in memory, as an in-memory exporter would, with the service name of the process that sent it.

/** The kinds of the OTLP encoding (SpanKind + 1 of @opentelemetry/api). */
export const OTLP_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** One span as received. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** "" for a trace's root */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: number;
}

/** The receiver: its OTEL_EXPORTER_OTLP_ENDPOINT, the spans so far, and how to stop it. */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** the spans of one trace */
  trace(traceId: string): ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}

interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpKeyValue[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

function plain(v: OtlpValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  return v.doubleValue ?? "";
}

function attributesOf(list: OtlpKeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map((a) => [a.key, plain(a.value)]));
}

/**
 * Starts a receiver on a free loopback port answering POST /v1/traces (JSON, gzip or not) with
 * an empty success.
 * @throws when the port cannot be bound.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      try {
        const raw = Buffer.concat(chunks);
        const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        const message = JSON.parse(body.toString("utf8")) as OtlpRequest;
        for (const rs of message.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "");
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? "",
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
                status: s.status?.code ?? 0,
              });
            }
          }
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    trace: (traceId) => spans.filter((s) => s.traceId === traceId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
