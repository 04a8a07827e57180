import { builder } from "@gateway/graphql/builder";
import { actedBy, type GraphQLContext } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { parseId, parseInput, withoutNulls } from "@gateway/input";
import { text } from "@schema/validation/primitives";
import {
  type AttemptView,
  createEndpoint,
  DELIVERY_STATUSES,
  type DeliveryPage,
  type DeliveryView,
  deliveryAttempts,
  type EndpointView,
  getDelivery,
  type JobView,
  listDeliveries,
  listJobs,
  type NatsChannelView,
  redeliver,
  replayFailed,
  resyncUser,
  rotateEndpointSecret,
  type SyncCounts,
  type SyncOverview,
  sendTestEvent,
  setEndpointEnabled,
  startResyncAll,
  syncOverview,
  updateEndpoint,
} from "@services/esrt-sync";
import { AppError } from "@services/shared/errors";
import { z } from "zod";

// The Pro-app sync page (issue 10; manage:esrt_sync on every field): the overview, the delivery log
// and its attempts, endpoints, sending again, resync, and the jobs. API keys are in esrtApiKey.ts.
// No type here has a field that could carry a stored secret: an endpoint's secret is returned only
// by the mutations that make one (EsrtEndpointSecret), once.

const SCOPE = { manageEsrtSync: true } as const;

const EsrtHealthEnum = builder.enumType("EsrtHealth", {
  values: ["healthy", "degraded", "paused", "disabled"] as const,
});
export const EsrtChannelEnum = builder.enumType("EsrtChannel", {
  values: ["nats", "webhook", "api"] as const,
});
const EsrtDeliveryStatusEnum = builder.enumType("EsrtDeliveryStatus", { values: DELIVERY_STATUSES });
const EsrtJobStatusEnum = builder.enumType("EsrtJobStatus", {
  values: ["queued", "running", "done", "failed"] as const,
});

const EsrtEndpointRef = builder.objectRef<EndpointView>("EsrtEndpoint").implement({
  description: "A webhook endpoint of the Pro app (its secret is never a field).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    url: t.exposeString("url"),
    description: t.exposeString("description", { nullable: true }),
    enabled: t.exposeBoolean("enabled"),
    health: t.field({
      type: EsrtHealthEnum,
      description:
        "healthy: last attempt ok; degraded: failing; paused: failing for days, no automatic attempts until enabled again; disabled: by an administrator or a 410 answer",
      resolve: (e) => e.health,
    }),
    disabledReason: t.exposeString("disabledReason", { nullable: true }),
    consecutiveFailures: t.exposeInt("consecutiveFailures"),
    failingSince: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.failingSince }),
    lastSuccessAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.lastSuccessAt }),
    lastFailureAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.lastFailureAt }),
    secretRotatedAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.secretRotatedAt }),
    previousSecretExpiresAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "the old secret also signs until then (rotation grace)",
      resolve: (e) => e.previousSecretExpiresAt,
    }),
    createdAt: t.field({ type: "DateTime", resolve: (e) => e.createdAt }),
    waitingDeliveries: t.exposeInt("waitingDeliveries", {
      description: "deliveries waiting to be sent or being sent",
    }),
  }),
});

const EsrtNatsChannelRef = builder.objectRef<NatsChannelView>("EsrtNatsChannel").implement({
  description: "The NATS channel: the JetStream stream and subjects the Pro app subscribes to.",
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled"),
    health: t.field({ type: EsrtHealthEnum, resolve: (n) => n.health }),
    stream: t.exposeString("stream"),
    subjectPrefix: t.exposeString("subjectPrefix"),
    lastPublishedAt: t.field({ type: "DateTime", nullable: true, resolve: (n) => n.lastPublishedAt }),
    lastAcknowledgedAt: t.field({ type: "DateTime", nullable: true, resolve: (n) => n.lastAcknowledgedAt }),
    lastError: t.exposeString("lastError", { nullable: true }),
  }),
});

const EsrtSyncCountsRef = builder.objectRef<SyncCounts>("EsrtSyncCounts").implement({
  description:
    "Users by sync state: synced (acknowledged their latest version), pending (not yet), failing (a delivery is being retried), dead (a delivery ran out of attempts).",
  fields: (t) => ({
    users: t.exposeInt("users"),
    synced: t.exposeInt("synced"),
    pending: t.exposeInt("pending"),
    failing: t.exposeInt("failing"),
    dead: t.exposeInt("dead"),
  }),
});

const EsrtSyncOverviewRef = builder.objectRef<SyncOverview>("EsrtSyncOverview").implement({
  fields: (t) => ({
    counts: t.field({ type: EsrtSyncCountsRef, resolve: (o) => o.counts }),
    nats: t.field({ type: EsrtNatsChannelRef, resolve: (o) => o.nats }),
    endpoints: t.field({ type: [EsrtEndpointRef], resolve: (o) => o.endpoints }),
  }),
});

const EsrtDeliveryAttemptRef = builder.objectRef<AttemptView>("EsrtDeliveryAttempt").implement({
  fields: (t) => ({
    attempt: t.exposeInt("attempt"),
    startedAt: t.field({ type: "DateTime", resolve: (a) => a.startedAt }),
    statusCode: t.exposeInt("statusCode", { nullable: true }),
    latencyMs: t.exposeInt("latencyMs"),
    error: t.exposeString("error", { nullable: true }),
    responseSnippet: t.exposeString("responseSnippet", {
      nullable: true,
      description: "first 500 characters of the answer",
    }),
  }),
});

const EsrtDeliveryRef = builder.objectRef<DeliveryView>("EsrtDelivery").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    messageId: t.exposeString("messageId", { description: "the webhook-id (stable across retries)" }),
    channel: t.field({ type: EsrtChannelEnum, resolve: (d) => d.channel }),
    endpointId: t.exposeInt("endpointId", { nullable: true }),
    endpointUrl: t.exposeString("endpointUrl", { nullable: true }),
    userId: t.exposeInt("userId", { nullable: true }),
    uniqueId: t.exposeString("uniqueId", { nullable: true }),
    userName: t.exposeString("userName", {
      nullable: true,
      description: "first and last name from the snapshot",
    }),
    version: t.exposeInt("version", { nullable: true }),
    eventType: t.exposeString("eventType", { description: "user.sync or endpoint.test" }),
    status: t.field({ type: EsrtDeliveryStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.nextAttemptAt }),
    lastStatusCode: t.exposeInt("lastStatusCode", { nullable: true }),
    lastError: t.exposeString("lastError", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (d) => d.createdAt }),
    deliveredAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.deliveredAt }),
    payload: t.field({ type: "JSON", resolve: (d) => d.payload }),
    attemptLog: t.field({
      type: [EsrtDeliveryAttemptRef],
      resolve: (d, _args, ctx) => deliveryAttempts(ctx.db, d.id),
    }),
  }),
});

const EsrtDeliveryConnectionRef = keysetPage<DeliveryView, DeliveryPage>("EsrtDeliveryConnection", {
  node: EsrtDeliveryRef,
  description: "One page of deliveries, newest first (keyset pages: pass endCursor as `after`).",
  totalCount: true,
});

const EsrtJobRef = builder.objectRef<JobView>("EsrtJob").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    kind: t.exposeString("kind"),
    status: t.field({ type: EsrtJobStatusEnum, resolve: (j) => j.status }),
    total: t.exposeInt("total"),
    done: t.exposeInt("done"),
    failed: t.exposeInt("failed"),
    error: t.exposeString("error", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (j) => j.createdAt }),
    startedAt: t.field({ type: "DateTime", nullable: true, resolve: (j) => j.startedAt }),
    finishedAt: t.field({ type: "DateTime", nullable: true, resolve: (j) => j.finishedAt }),
  }),
});

const EsrtEndpointSecretRef = builder
  .objectRef<{ endpoint: EndpointView; secret: string }>("EsrtEndpointSecret")
  .implement({
    description: "An endpoint and its whsec_ secret, shown this once (after creation or rotation).",
    fields: (t) => ({
      endpoint: t.field({ type: EsrtEndpointRef, resolve: (s) => s.endpoint }),
      secret: t.exposeString("secret"),
    }),
  });

const EsrtDeliveryFilterInput = builder.inputType("EsrtDeliveryFilter", {
  fields: (t) => ({
    after: t.string({ description: "endCursor of the previous page" }),
    first: t.int({ description: "page size, 1 to 100 (default 25)" }),
    status: t.field({ type: [EsrtDeliveryStatusEnum] }),
    channel: t.field({ type: EsrtChannelEnum }),
    endpointId: t.int(),
    user: t.string({ description: "uniqueId, name, username or email, or a part of one" }),
    from: t.field({ type: "DateTime", description: "created at or after" }),
    to: t.field({ type: "DateTime", description: "created before" }),
  }),
});

const EsrtEndpointInput = builder.inputType("EsrtEndpointInput", {
  fields: (t) => ({ url: t.string({ required: true }), description: t.string() }),
});

const endpointInputSchema = z.object({
  url: text({ error: "Please enter a valid URL" })
    .trim()
    .min(1, "Please enter a valid URL")
    .max(2000, "The URL is at most 2000 characters"),
  description: text().trim().max(200, "At most 200 characters").nullish(),
});

dbQuery("esrtSyncOverview", {
  type: EsrtSyncOverviewRef,
  description: "Users by sync state, the NATS channel and every endpoint (manage:esrt_sync).",
  authScopes: SCOPE,
  read: syncOverview,
});

builder.queryField("esrtDeliveries", (t) =>
  t.field({
    type: EsrtDeliveryConnectionRef,
    description: "The delivery log, newest first, filtered and paged (manage:esrt_sync).",
    authScopes: SCOPE,
    args: { filter: t.arg({ type: EsrtDeliveryFilterInput }) },
    resolve: (_root, args, ctx) => runIdentity(() => listDeliveries(ctx.db, withoutNulls(args.filter))),
  }),
);

builder.queryField("esrtDelivery", (t) =>
  t.field({
    type: EsrtDeliveryRef,
    nullable: true,
    description: "One delivery with its attempts; null when not found (manage:esrt_sync).",
    authScopes: SCOPE,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => getDelivery(ctx.db, parseId(args.id))),
  }),
);

dbQuery("esrtJobs", {
  type: [EsrtJobRef],
  description: "The latest jobs, newest first (at most 10) (manage:esrt_sync).",
  authScopes: SCOPE,
  read: listJobs,
});

builder.mutationField("createEsrtEndpoint", (t) =>
  t.field({
    type: EsrtEndpointSecretRef,
    description: "Adds a webhook endpoint; its secret is returned this once (manage:esrt_sync).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { input: t.arg({ type: EsrtEndpointInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        const input = parseInput(endpointInputSchema, args.input);
        return createEndpoint({
          db: ctx.db,
          ...actedBy(ctx),
          url: input.url,
          description: input.description,
        });
      }),
  }),
);

builder.mutationField("updateEsrtEndpoint", (t) =>
  t.field({
    type: EsrtEndpointRef,
    description: "Changes an endpoint's URL and description (manage:esrt_sync).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: EsrtEndpointInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        const input = parseInput(endpointInputSchema, args.input);
        return updateEndpoint({
          db: ctx.db,
          ...actedBy(ctx),
          id: parseId(args.id),
          url: input.url,
          description: input.description,
        });
      }),
  }),
);

builder.mutationField("setEsrtEndpointEnabled", (t) =>
  t.field({
    type: EsrtEndpointRef,
    description:
      "Disables an endpoint, or enables it again (also resumes a paused one or one a 410 disabled).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        setEndpointEnabled({ db: ctx.db, ...actedBy(ctx), id: parseId(args.id), enabled: args.enabled }),
      ),
  }),
);

builder.mutationField("rotateEsrtEndpointSecret", (t) =>
  t.field({
    type: EsrtEndpointSecretRef,
    description: "A new secret, returned this once; the old one keeps signing for the grace period.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => rotateEndpointSecret({ db: ctx.db, ...actedBy(ctx), id: parseId(args.id) })),
  }),
);

/** A delivery that was just made. @throws AppError NOT_FOUND */
async function deliveryById(ctx: GraphQLContext, id: number): Promise<DeliveryView> {
  const found = await getDelivery(ctx.db, id);
  if (!found) throw new AppError("NOT_FOUND", "Delivery not found");
  return found;
}

builder.mutationField("sendEsrtTestEvent", (t) =>
  t.field({
    type: EsrtDeliveryRef,
    description: "Queues a test event to an endpoint (manage:esrt_sync).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { endpointId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        deliveryById(ctx, await sendTestEvent({ db: ctx.db, endpointId: parseId(args.endpointId) })),
      ),
  }),
);

builder.mutationField("redeliverEsrtDelivery", (t) =>
  t.field({
    type: EsrtDeliveryRef,
    description:
      "Sends a delivered or dead delivery again (CONFLICT when a newer version of the user exists).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => redeliver({ db: ctx.db, ...actedBy(ctx), id: parseId(args.id) })),
  }),
);

builder.mutationField("replayFailedEsrtDeliveries", (t) =>
  t.field({
    type: "Int",
    description:
      "Sends again every dead delivery made since `since` that is still its user's latest, and tries the ones being retried now; returns how many.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { since: t.arg({ type: "DateTime", required: true }), endpointId: t.arg.int() },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        replayFailed({
          db: ctx.db,
          ...actedBy(ctx),
          since: args.since,
          endpointId:
            args.endpointId === null || args.endpointId === undefined ? null : parseId(args.endpointId),
        }),
      ),
  }),
);

builder.mutationField("resyncEsrtUser", (t) =>
  t.field({
    type: "Int",
    description: "Sends the user's latest snapshot again on every channel; returns the deliveries made.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { uniqueId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => resyncUser({ db: ctx.db, ...actedBy(ctx), uniqueId: args.uniqueId })),
  }),
);

builder.mutationField("resyncAllEsrtUsers", (t) =>
  t.field({
    type: EsrtJobRef,
    description: "A job that re-sends every user's latest snapshot (ESRT_RESYNC_RATE users a second).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) => runIdentity(() => startResyncAll({ db: ctx.db, ...actedBy(ctx) })),
  }),
);
