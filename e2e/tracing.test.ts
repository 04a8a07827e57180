import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { createEndpoint } from "@services/esrt-sync";
import { config, setConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { migratedScratchDatabase } from "@services/shared/testing/db";
import { createAdmin, createUser, randomBusinessSlot } from "@services/shared/testing/factories";
import {
  type BuiltRuntime,
  buildRuntime,
  type ServerProcess,
  startServer,
} from "@services/shared/testing/processes";
import { signInOverHttp, waitFor } from "./support/http";
import { OTLP_KIND, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./support/otlpReceiver";

// One trace per request, across the event bus (issue 22): the gateway and a worker run as in
// production, each in a process of its own (`npm run start` with WORKERS=none and RELAY=1, `npm run
// worker -- email esrt-sync`), exporting their spans over OTLP/HTTP to a receiver in this test that
// keeps them in memory. A booking made over REST must come back as one trace from the HTTP request
// to the SMTP conversation of its email, and an administrator's change of a user as one trace from
// the GraphQL request to the webhook the Pro app receives, each span the child of the one before.

/** A webhook receiver standing in for the Pro app: keeps each request's headers and answers 204. */
async function startWebhookReceiver() {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push(req.headers);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Each span of a trace as one line (service, kind, name), for a failure's message. */
function describeTrace(spans: ReceivedSpan[]): string {
  return spans.map((s) => `${s.service} ${s.kind} ${s.name} ${s.spanId} <- ${s.parentSpanId}`).join("\n");
}

/** The span's ancestors, nearest first, as far as the trace holds them. */
function ancestorsOf(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: ReceivedSpan[] = [];
  let parent = byId.get(span.parentSpanId);
  while (parent) {
    chain.push(parent);
    parent = byId.get(parent.parentSpanId);
  }
  return chain;
}

describe("tracing across the event bus (OTLP to an in-memory receiver)", () => {
  let receiver: OtlpReceiver;
  let smtp: TestSmtp;
  let webhooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let scratch: { url: string; drop(): Promise<void> };
  let db: Db;
  let runtime: BuiltRuntime;
  let gateway: ServerProcess;
  let worker: ServerProcess;
  let url: string;

  beforeAll(async () => {
    [receiver, smtp, webhooks, scratch, runtime] = await Promise.all([
      startOtlpReceiver(),
      startTestSmtp(),
      startWebhookReceiver(),
      migratedScratchDatabase(),
      buildRuntime(),
    ]);
    const env: Record<string, string> = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      DATABASE_URL: scratch.url,
      EVENT_STREAM: `${process.env.EVENT_STREAM}_TRACE`,
      SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX}trace`,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}trace:`,
      SMTP_URL: smtp.url,
      ESRT_NATS: "0",
      ESRT_ALLOW_HTTP: "1",
      ESRT_ALLOW_PRIVATE: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      // spans leave within a tenth of a second (default 5 s)
      OTEL_BSP_SCHEDULE_DELAY: "100",
    };
    // the production bundles, as the image runs them (the SDK starts before what it instruments)
    [gateway, worker] = await Promise.all([
      startServer({
        name: "gateway",
        script: "gateway/src/main.ts",
        env: { ...env, WORKERS: "none", RELAY: "1" },
        readyPath: "/readyz",
        runtime,
        keepLog: true,
        timeoutMs: 100_000,
      }),
      startServer({
        name: "worker",
        script: "services/worker.ts",
        args: ["email", "esrt-sync"],
        env: { ...env, RELAY: "0" },
        readyLine: /worker started/,
        runtime,
        timeoutMs: 100_000,
      }),
    ]);
    url = gateway.url;
    db = await connectPostgres(scratch.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.stop(), worker?.stop()]);
    runtime?.remove();
    await db?.close();
    await Promise.all([receiver?.close(), smtp?.stop(), webhooks?.close(), scratch?.drop()]);
  });

  /** The one span of `spans` that `pick` chooses. @throws when there is none or more than one. */
  function only(spans: ReceivedSpan[], pick: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan {
    const found = spans.filter(pick);
    if (found.length !== 1) throw new Error(`${found.length} spans for ${what}:\n${describeTrace(spans)}`);
    return found[0] as ReceivedSpan;
  }

  /**
   * The spans of the event `type`'s way from the request `server` through the outbox and the bus to
   * the worker's consumer `group` (`what`, for a failure's message), each checked for its place: the
   * gateway's outbox write below `server`, the relay's publish as its child and the consumer's
   * handling as the publish's child.
   */
  function eventSpans(
    spans: ReceivedSpan[],
    server: ReceivedSpan,
    type: string,
    consumer: { group: string; what: string },
  ): { create: ReceivedSpan; processed: ReceivedSpan } {
    const create = only(spans, (s) => s.name === `create ${type}`, "the outbox write");
    expect(create).toMatchObject({ service: "gateway", kind: OTLP_KIND.producer });
    expect(ancestorsOf(create, spans)).toContainEqual(server);
    const publish = only(spans, (s) => s.name === `publish ${type}`, "the relay's publish");
    expect(publish).toMatchObject({
      service: "gateway",
      kind: OTLP_KIND.producer,
      parentSpanId: create.spanId,
    });
    const processed = only(
      spans,
      (s) => s.name === `process ${type}` && s.attributes["messaging.consumer.group.name"] === consumer.group,
      consumer.what,
    );
    expect(processed).toMatchObject({
      service: "worker-email,esrt-sync",
      kind: OTLP_KIND.consumer,
      parentSpanId: publish.spanId,
    });
    return { create, processed };
  }

  it("follows a booking made over REST from the HTTP request to the SMTP send of its email", async () => {
    const client = await createUser(db, { userType: "client" });
    const cookie = await signInOverHttp(url, client.username);
    const res = await fetch(`${url}/api/appointments`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ appointmentType: "phone", dateTime: randomBusinessSlot().toISOString() }),
    });
    const requestId = res.headers.get("x-request-id");
    expect(res.status).toBe(201);
    await res.arrayBuffer();

    // the HTTP server span of the booking, and then the whole trace down to the email's send
    const server = await waitFor("server span of the booking", () =>
      receiver.spans.find(
        (s) =>
          s.kind === OTLP_KIND.server &&
          s.attributes["http.route"] === "/api/appointments" &&
          s.attributes["http.request.method"] === "POST",
      ),
    );
    expect(server.service).toBe("gateway");
    expect(server.parentSpanId).toBe("");
    // the client's email (the team's, a sibling, may come first)
    const spans = await waitFor(
      "SMTP send of the client's email in the booking's trace",
      () => {
        const trace = receiver.trace(server.traceId);
        const consumer = trace.find(
          (s) => s.attributes["messaging.consumer.group.name"] === "email_appointments",
        );
        return (
          consumer && trace.some((s) => s.name === "smtp send" && s.parentSpanId === consumer.spanId) && trace
        );
      },
      30_000,
      () => describeTrace(receiver.trace(server.traceId)),
    );
    await waitFor("the client's email", () => smtp.to(client.email).length > 0);

    const { create, processed } = eventSpans(spans, server, "appointment.scheduled", {
      group: "email_appointments",
      what: "the email service's consumer",
    });
    const insert = only(
      spans,
      (s) =>
        s.parentSpanId === create.spanId && /INSERT/i.test(String(s.attributes["db.query.text"] ?? s.name)),
      "the outbox row's INSERT",
    );
    expect(String(insert.attributes["db.query.text"])).toContain("outbox_events");

    const send = only(
      spans,
      (s) => s.name === "smtp send" && s.parentSpanId === processed.spanId,
      "the SMTP send of the client's email",
    );
    expect(send).toMatchObject({
      service: "worker-email,esrt-sync",
      kind: OTLP_KIND.client,
      parentSpanId: processed.spanId,
      attributes: expect.objectContaining({
        "server.address": "127.0.0.1",
        "server.port": Number(new URL(smtp.url).port),
      }),
    });

    // Redis spans name the command, never its keys (session ids)
    const redis = spans.filter((s) => s.attributes["db.system.name"] === "redis");
    expect(redis.length).toBeGreaterThan(0);
    for (const s of redis) expect(String(s.attributes["db.query.text"] ?? "")).not.toContain("sess:");

    // the access log's line of the request carries the trace's id
    const line = await waitFor("access log line of the booking", () =>
      gateway
        .output()
        .split("\n")
        .find((l) => requestId !== null && l.includes(requestId) && l.includes("request completed")),
    );
    expect(JSON.parse(line)).toMatchObject({ trace_id: server.traceId });
  }, 60_000);

  it("follows an administrator's change of a user from the GraphQL request to the Pro app's webhook", async () => {
    const admin = await createAdmin(db);
    setConfig({ ...config(), ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
    await createEndpoint({ db, actorId: admin.id, url: webhooks.url });
    const user = await createUser(db, { userType: "client" });
    const cookie = await signInOverHttp(url, admin.username);
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        query:
          "mutation ($id: Int!) { changeUserAccessLevel(userId: $id, accessLevel: full) { ... on MutationChangeUserAccessLevelSuccess { data { accessLevel } } } }",
        variables: { id: user.id },
      }),
    });
    expect(await res.json()).toEqual({
      data: { changeUserAccessLevel: { data: { accessLevel: "full" } } },
    });

    const server = await waitFor("server span of the change", () =>
      receiver.spans.find(
        (s) =>
          s.kind === OTLP_KIND.server &&
          s.attributes["http.route"] === "/graphql" &&
          receiver.trace(s.traceId).some((t) => t.name === "create user.updated"),
      ),
    );
    const spans = await waitFor(
      "webhook request in the change's trace",
      () => {
        const trace = receiver.trace(server.traceId);
        return trace.some((s) => s.kind === OTLP_KIND.client && s.name === "POST") && trace;
      },
      30_000,
      () => describeTrace(receiver.trace(server.traceId)),
    );

    const { create, processed } = eventSpans(spans, server, "user.updated", {
      group: "esrt_user_snapshots",
      what: "the sync service's consumer",
    });
    expect(ancestorsOf(create, spans).some((s) => s.name.startsWith("mutation"))).toBe(true);
    const deliver = only(spans, (s) => s.name === "deliver user.sync", "the dispatcher's attempt");
    expect(deliver).toMatchObject({
      service: "worker-email,esrt-sync",
      kind: OTLP_KIND.internal,
      parentSpanId: processed.spanId,
    });
    const post = only(spans, (s) => s.kind === OTLP_KIND.client && s.name === "POST", "the webhook request");
    expect(post).toMatchObject({
      service: "worker-email,esrt-sync",
      parentSpanId: deliver.spanId,
      attributes: expect.objectContaining({ "url.full": webhooks.url, "http.response.status_code": 204 }),
    });
    // the Pro app receives the trace context with the webhook
    expect(webhooks.requests.map((h) => h.traceparent)).toContain(`00-${post.traceId}-${post.spanId}-01`);
  }, 60_000);
});
