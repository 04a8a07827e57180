-- Tracing (issue 22): a queued email and a Pro-app delivery keep the W3C trace context of the span
-- that made them (the consumer's, or an administrator's request), so that sending them later, in a
-- sender's or a dispatcher's loop, is a span of the same trace. Null while tracing is off.
ALTER TABLE "email_messages"
ADD COLUMN "traceparent" TEXT,
ADD COLUMN "tracestate" TEXT;

ALTER TABLE "esrt_deliveries"
ADD COLUMN "traceparent" TEXT,
ADD COLUMN "tracestate" TEXT;
