import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

// Tracing as the services use it (issue 22): the trace context an event or a queued row carries, and
// the spans of the event bus, the email sender and the webhook dispatcher. Only @opentelemetry/api
// here: the SDK is loaded by ./start.ts, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set. While it
// is off every helper answers at once (no context read, no span made), so the request path costs
// what it cost before.

/** The W3C trace context of a span, as it travels in an event envelope or a queued row. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

let enabled = false;

/** Whether this process exports traces (set once by startTelemetry). */
export function tracingEnabled(): boolean {
  return enabled;
}

/** Marks tracing on for this process; called by startTelemetry once the SDK is registered. */
export function markTracingEnabled(): void {
  enabled = true;
}

/** The portal's tracer (its spans are named for the event bus, email and webhooks). */
function tracer() {
  return trace.getTracer("receivables-portal");
}

/**
 * The trace context of the active span, to store with an event or a queued row so that the work it
 * causes later (in this process or another) joins the same trace. Undefined while tracing is off or
 * when no span is active.
 */
export function currentTraceContext(): TraceContext | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const { traceparent, tracestate } = carrier;
  if (!traceparent) return undefined;
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** The context a stored trace context stands for (the root context when there is none). */
export function contextOf(stored: { traceparent?: string | null; tracestate?: string | null }): Context {
  if (!stored.traceparent) return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent: stored.traceparent };
  if (stored.tracestate) carrier.tracestate = stored.tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** A span to start: its name, kind and attributes, and the context it is a child of. */
export interface SpanStart {
  name: string;
  kind: SpanKind;
  attributes?: Attributes;
  /** the parent (default: the active context) */
  parent?: Context;
}

/**
 * Runs `work` inside a new span (active while it runs, so the spans it causes are its children) and
 * ends the span when it settles: an error thrown marks the span failed and is rethrown. While tracing
 * is off it runs `work` alone. `work` receives the span (undefined while off) to add what it learns.
 */
export async function inSpan<T>(start: SpanStart, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!enabled) return work(undefined);
  const parent = start.parent ?? context.active();
  const span = tracer().startSpan(start.name, { kind: start.kind, attributes: start.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Starts a span without making it active (for work that settles elsewhere, like a publish among a
 * batch's); undefined while tracing is off. End it with {@link endSpan}.
 */
export function startSpan(start: SpanStart): Span | undefined {
  if (!enabled) return undefined;
  return tracer().startSpan(
    start.name,
    { kind: start.kind, attributes: start.attributes },
    start.parent ?? context.active(),
  );
}

/** The trace context of `span`, to pass on to the work it causes. */
export function traceContextOf(span: Span): TraceContext | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  const { traceparent, tracestate } = carrier;
  if (!traceparent) return undefined;
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** Ends a span, failed when `err` is given. */
export function endSpan(span: Span | undefined, err?: unknown): void {
  if (!span) return;
  if (err !== undefined) failSpan(span, err);
  span.end();
}

/** Marks a span failed with the error's type and message (the error.type attribute of semconv). */
export function failSpan(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setAttribute("error.type", error.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message.slice(0, 500) });
}

/**
 * Attribute names of the messaging semantic conventions, copied as the semantic-conventions package
 * advises for those still incubating (they may be renamed in a minor release).
 */
export const MESSAGING = {
  system: "messaging.system",
  operationName: "messaging.operation.name",
  operationType: "messaging.operation.type",
  destinationName: "messaging.destination.name",
  consumerGroupName: "messaging.consumer.group.name",
  messageId: "messaging.message.id",
  conversationId: "messaging.message.conversation_id",
  batchCount: "messaging.batch.message_count",
} as const;

export { SpanKind, SpanStatusCode };
