import { builder } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import {
  type ConsumerHealth,
  type DeadLetterPage,
  type DeadLetterView,
  type DemoDataCounts,
  type DemoDataStatus,
  type DependencyHealth,
  demoDataStatus,
  generateDemoData,
  listDeadLetters,
  type RetryOutcome,
  type RoundTrip,
  type RoundTripAnswer,
  removeDemoData,
  retryDeadLetter,
  roundTripResult,
  type SystemHealth,
  startRoundTrip,
  systemHealth,
} from "@services/diagnostics";
import { AppError } from "@services/shared/errors";
import { type EventFigures, eventFigures } from "@services/shared/events/figures";

// The testing tools (/admin/testing, manage:config, issue 12): the health of every dependency, an
// event round trip through every service's consumer, the outbox backlog and the dead letters.

const SCOPE = { manageConfig: true } as const;

const DependencyStatusEnum = builder.enumType("DependencyStatus", {
  values: ["up", "degraded", "down", "off"] as const,
});

const DependencyHealthRef = builder.objectRef<DependencyHealth>("DependencyHealth").implement({
  description: "One dependency: whether it answered, how fast, and what the probe found.",
  fields: (t) => ({
    key: t.exposeString("key"),
    name: t.exposeString("name"),
    status: t.field({ type: DependencyStatusEnum, resolve: (d) => d.status }),
    mode: t.exposeString("mode"),
    latencyMs: t.exposeInt("latencyMs", { nullable: true }),
    detail: t.exposeString("detail"),
    lastAttemptAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.lastAttemptAt }),
  }),
});

const ConsumerHealthRef = builder.objectRef<ConsumerHealth>("ConsumerHealth").implement({
  description: "One service's durable consumer on the event stream (counts null when the bus has none).",
  fields: (t) => ({
    name: t.exposeString("name"),
    service: t.exposeString("service"),
    pending: t.exposeInt("pending", { nullable: true, description: "events not yet delivered (lag)" }),
    ackPending: t.exposeInt("ackPending", { nullable: true, description: "delivered, not yet settled" }),
    redelivered: t.exposeInt("redelivered", { nullable: true }),
    active: t.exposeBoolean("active", { description: "a worker is pulling from it now" }),
  }),
});

const SystemHealthRef = builder.objectRef<SystemHealth>("SystemHealth").implement({
  fields: (t) => ({
    checkedAt: t.field({ type: "DateTime", resolve: (h) => h.checkedAt }),
    dependencies: t.field({ type: [DependencyHealthRef], resolve: (h) => h.dependencies }),
    stream: t.exposeString("stream", { nullable: true, description: "null on the in-process bus" }),
    streamMessages: t.exposeInt("streamMessages", { nullable: true }),
    consumers: t.field({ type: [ConsumerHealthRef], resolve: (h) => h.consumers }),
  }),
});

const EventFiguresRef = builder.objectRef<EventFigures>("EventPipelineFigures").implement({
  description: "The outbox backlog and the dead letters.",
  fields: (t) => ({
    outboxBacklog: t.exposeInt("outboxBacklog"),
    oldestUnpublishedAt: t.field({ type: "DateTime", nullable: true, resolve: (f) => f.oldestUnpublishedAt }),
    deadLetters: t.exposeInt("deadLetters"),
  }),
});

const RoundTripAnswerRef = builder.objectRef<RoundTripAnswer>("RoundTripAnswer").implement({
  fields: (t) => ({
    consumer: t.exposeString("consumer"),
    service: t.exposeString("service"),
    handledAt: t.field({ type: "DateTime", nullable: true, resolve: (a) => a.handledAt }),
    msAfterCommit: t.exposeInt("msAfterCommit", { nullable: true }),
  }),
});

const RoundTripRef = builder.objectRef<RoundTrip>("EventRoundTrip").implement({
  description: "A test event's way through the outbox, the bus and every service's consumer.",
  fields: (t) => ({
    eventId: t.exposeString("eventId"),
    committedAt: t.field({ type: "DateTime", resolve: (r) => r.committedAt }),
    publishedAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.publishedAt }),
    answers: t.field({ type: [RoundTripAnswerRef], resolve: (r) => r.answers }),
    complete: t.exposeBoolean("complete"),
    timedOut: t.exposeBoolean("timedOut"),
  }),
});

const DeadLetterRef = builder.objectRef<DeadLetterView>("DeadLetter").implement({
  description: "An event a consumer gave up on after its last delivery attempt.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    consumer: t.exposeString("consumer"),
    eventId: t.exposeString("eventId"),
    type: t.exposeString("type"),
    subject: t.exposeString("subject"),
    error: t.exposeString("error"),
    attempts: t.exposeInt("attempts"),
    createdAt: t.field({ type: "DateTime", resolve: (d) => d.createdAt }),
  }),
});

const DeadLetterConnectionRef = keysetPage<DeadLetterView, DeadLetterPage>("DeadLetterConnection", {
  node: DeadLetterRef,
  description: "One page of dead letters, newest first (keyset pages: pass endCursor as `after`).",
});

const RetryOutcomeEnum = builder.enumType("DeadLetterRetryOutcome", {
  values: ["delivered", "already_applied"] as const,
});

const RetryOutcomeRef = builder.objectRef<RetryOutcome>("DeadLetterRetry").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    consumer: t.exposeString("consumer"),
    eventId: t.exposeString("eventId"),
    outcome: t.field({ type: RetryOutcomeEnum, resolve: (r) => r.outcome }),
  }),
});

builder.queryField("systemHealth", (t) =>
  t.field({
    type: SystemHealthRef,
    description: "Every dependency probed now, each within a few seconds (manage:config).",
    authScopes: SCOPE,
    resolve: (_root, _args, ctx) => systemHealth(ctx.probes),
  }),
);

dbQuery("eventPipeline", {
  type: EventFiguresRef,
  description: "The outbox backlog and the dead letters' count (manage:config).",
  authScopes: SCOPE,
  read: (db) => eventFigures({ db }),
});

builder.queryField("eventRoundTrip", (t) =>
  t.field({
    type: RoundTripRef,
    description: "A round trip's progress: each consumer's answer and timing (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { eventId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => roundTripResult({ db: ctx.db, input: { eventId: args.eventId } })),
  }),
);

builder.queryField("deadLetters", (t) =>
  t.field({
    type: DeadLetterConnectionRef,
    description: "Dead letters, newest first, a page at a time (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { first: t.arg.int(), after: t.arg.string() },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        listDeadLetters({ db: ctx.db, input: withoutNulls({ first: args.first, after: args.after }) }),
      ),
  }),
);

builder.mutationField("startEventRoundTrip", (t) =>
  t.field({
    type: RoundTripRef,
    description: "Publishes a test event through the outbox for every service's consumer (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(async () => {
        const eventId = await startRoundTrip({ db: ctx.db, actorId: caller(ctx).id });
        return roundTripResult({ db: ctx.db, input: { eventId } });
      }),
  }),
);

builder.mutationField("retryDeadLetter", (t) =>
  t.field({
    type: RetryOutcomeRef,
    description: "Delivers a dead letter again to its consumer, at most once; audited (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => retryDeadLetter({ db: ctx.db, input: { id: args.id }, actorId: caller(ctx).id })),
  }),
);

const DemoDataStatusRef = builder.objectRef<DemoDataStatus>("DemoDataStatus").implement({
  description: "Whether demo data may be made here (never in production) and how many demo users exist.",
  fields: (t) => ({
    available: t.exposeBoolean("available"),
    users: t.exposeInt("users", { description: "every demo user, whatever the role" }),
    clients: t.exposeInt("clients", { description: "the demo users who are clients" }),
  }),
});

const DemoDataCountsRef = builder.objectRef<DemoDataCounts>("DemoDataCounts").implement({
  description: "The demo users (clients among them), appointments and documents made or removed.",
  fields: (t) => ({
    users: t.exposeInt("users", { description: "the demo clients and one demo user of each other role" }),
    clients: t.exposeInt("clients"),
    appointments: t.exposeInt("appointments"),
    documents: t.exposeInt("documents"),
  }),
});

dbQuery("demoData", {
  type: DemoDataStatusRef,
  description: "Whether demo data may be made here and how much exists (manage:config).",
  authScopes: SCOPE,
  read: demoDataStatus,
});

builder.mutationField("generateDemoData", (t) =>
  t.field({
    type: DemoDataCountsRef,
    description:
      "Makes demo clients with appointments, documents and notes, and a demo prospect, userAdmin and mainAdmin; never in production (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(() => generateDemoData({ db: ctx.db, actorId: caller(ctx).id })),
  }),
);

builder.mutationField("removeDemoData", (t) =>
  t.field({
    type: DemoDataCountsRef,
    description:
      "Removes the demo users and all of theirs, nothing else; never in production (manage:config).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(() => removeDemoData({ db: ctx.db, actorId: caller(ctx).id })),
  }),
);
