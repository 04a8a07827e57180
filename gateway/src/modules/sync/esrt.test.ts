import { graphqlClient, isolatedAppFixture, signedInAs } from "@gateway/testing/fixtures";
import { applySnapshot } from "@services/esrt-sync";
import { createUser } from "@services/shared/testing/factories";
import { syncSnapshot } from "@services/user";
import request from "supertest";

// The sync page's GraphQL (manage:esrt_sync) on a database of its own: who may use it, the
// endpoint rules (https, no private addresses, the secret shown once), the delivery log, sending
// again and resync.

const harness = isolatedAppFixture({
  settings: { ESRT_ALLOW_HTTP: false, ESRT_ALLOW_PRIVATE: false, ESRT_NATS: false },
});

const gql = graphqlClient(harness);

function signIn(userType: "client" | "prospect" | "user" | "userAdmin" | "mainAdmin"): Promise<string> {
  return signedInAs(harness, userType);
}

const CREATE = `mutation ($input: EsrtEndpointInput!) { createEsrtEndpoint(input: $input) {
  __typename ... on AppError { code message }
  ... on MutationCreateEsrtEndpointSuccess { data { secret endpoint { id url health enabled waitingDeliveries } } } } }`;

const OPERATIONS: Record<string, string> = {
  overview:
    "{ esrtSyncOverview { counts { users synced pending failing dead } nats { enabled health stream } endpoints { id } } }",
  deliveries: "{ esrtDeliveries { totalCount hasNextPage nodes { id } } }",
  delivery: "{ esrtDelivery(id: 1) { id } }",
  jobs: "{ esrtJobs { id } }",
  apiKeys: "{ esrtApiKeys { id } }",
  createKey: `mutation { createEsrtApiKey(name: "matrix") { __typename } }`,
  create: `mutation { createEsrtEndpoint(input: { url: "https://pro.example.com/hook" }) { __typename } }`,
  replay: `mutation { replayFailedEsrtDeliveries(since: "2026-01-01T00:00:00Z") { __typename } }`,
  resync: `mutation { resyncEsrtUser(uniqueId: "nobody") { __typename } }`,
};

describe("who may use the sync page", () => {
  it.each(["anonymous", "client", "prospect", "user"] as const)(
    "%s is refused every operation",
    async (who) => {
      const cookie = who === "anonymous" ? "" : await signIn(who);
      for (const [name, query] of Object.entries(OPERATIONS)) {
        const { data, errors } = await gql(query, cookie);
        expect([name, errors?.[0]?.extensions?.code]).toEqual([
          name,
          who === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN",
        ]);
        expect(data === null || Object.values(data).every((v) => v === null)).toBe(true);
      }
      expect(await harness.db.prisma.esrtEndpoint.count()).toBe(0);
    },
  );

  it.each(["userAdmin", "mainAdmin"] as const)("%s may (manage:esrt_sync)", async (who) => {
    const cookie = await signIn(who);
    for (const [name, query] of Object.entries(OPERATIONS)) {
      const { errors } = await gql(query, cookie);
      expect([name, errors]).toEqual([name, undefined]);
    }
    await harness.db.prisma.esrtEndpoint.deleteMany({});
  });
});

describe("endpoints", () => {
  let admin: string;
  beforeAll(async () => {
    admin = await signIn("mainAdmin");
  });

  it.each([
    ["not a url", "Please enter a valid URL"],
    ["ftp://pro.example.com/x", "Please enter a valid URL"],
    ["http://pro.example.com/hook", "The endpoint must use https"],
    ["https://127.0.0.1/hook", "The endpoint may not point at a loopback or private address"],
    ["https://10.0.0.7/hook", "The endpoint may not point at a loopback or private address"],
    ["https://[::1]/hook", "The endpoint may not point at a loopback or private address"],
    ["https://localhost/hook", "The endpoint may not point at a loopback or private address"],
    ["https://user:pw@pro.example.com/hook", "The URL may not carry a user name or password"],
  ])("refuses %s: %s", async (url, message) => {
    const { data } = await gql(CREATE, admin, { input: { url } });
    expect(data.createEsrtEndpoint).toEqual({ __typename: "AppError", code: "VALIDATION_FAILED", message });
    expect(await harness.db.prisma.esrtEndpoint.count()).toBe(0);
  });

  it("adds an https endpoint and shows its whsec_ secret once; no field returns it again; the secret is stored sealed", async () => {
    const { data } = await gql(CREATE, admin, {
      input: { url: "https://pro.example.com/hook", description: "Production" },
    });
    const made = data.createEsrtEndpoint.data;
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.endpoint).toMatchObject({
      url: "https://pro.example.com/hook",
      health: "healthy",
      enabled: true,
      waitingDeliveries: 0,
    });
    const overview = await gql("{ esrtSyncOverview { endpoints { id url description } } }", admin);
    expect(JSON.stringify(overview.data)).not.toContain(made.secret.slice(6));
    const row = await harness.db.prisma.esrtEndpoint.findUniqueOrThrow({ where: { id: made.endpoint.id } });
    expect(row.secretSealed).not.toContain(made.secret.slice(6));
    const rotated = await gql(
      `mutation ($id: Int!) { rotateEsrtEndpointSecret(id: $id) { ... on MutationRotateEsrtEndpointSecretSuccess { data { secret endpoint { previousSecretExpiresAt } } } } }`,
      admin,
      { id: made.endpoint.id },
    );
    const again = rotated.data.rotateEsrtEndpointSecret.data;
    expect(again.secret).toMatch(/^whsec_/);
    expect(again.secret).not.toBe(made.secret);
    expect(new Date(again.endpoint.previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now());
    const audit = await harness.db.prisma.auditLog.findMany({ where: { targetType: "esrt_endpoint" } });
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["esrt.endpoint_created", "esrt.endpoint_secret_rotated"]),
    );
    await harness.db.prisma.esrtEndpoint.deleteMany({});
  });
});

describe("resync, the log and sending again", () => {
  it("resyncs a user to every enabled endpoint, lists the delivery with filters, refuses to redeliver a pending one", async () => {
    const admin = await signIn("userAdmin");
    await gql(CREATE, admin, { input: { url: "https://pro.example.com/a" } });
    const user = await createUser(harness.db, { userType: "client", firstName: "Ada", lastName: "Lovelace" });
    await harness.db.prisma.$transaction((tx) =>
      applySnapshot(tx, { userId: user.id, snapshot: syncSnapshot(user) }),
    );

    const resync = await gql(
      `mutation ($u: String!) { resyncEsrtUser(uniqueId: $u) { __typename ... on MutationResyncEsrtUserSuccess { data } ... on AppError { code } } }`,
      admin,
      { u: user.uniqueId },
    );
    expect(resync.data.resyncEsrtUser).toEqual({ __typename: "MutationResyncEsrtUserSuccess", data: 1 });
    const unknown = await gql(
      `mutation { resyncEsrtUser(uniqueId: "ESRT-NOPE") { ... on AppError { code message } } }`,
      admin,
    );
    expect(unknown.data.resyncEsrtUser).toEqual({ code: "NOT_FOUND", message: "User not found" });

    const LIST = `query ($f: EsrtDeliveryFilter) { esrtDeliveries(filter: $f) { totalCount endCursor hasNextPage
      nodes { id messageId channel uniqueId userName version eventType status attempts endpointUrl attemptLog { attempt } } } }`;
    const byName = await gql(LIST, admin, { f: { user: "lovel", status: ["pending"] } });
    expect(byName.data.esrtDeliveries.totalCount).toBe(1);
    const [node] = byName.data.esrtDeliveries.nodes;
    expect(node).toMatchObject({
      channel: "webhook",
      uniqueId: user.uniqueId,
      userName: "Ada Lovelace",
      version: user.version,
      eventType: "user.sync",
      status: "pending",
      attempts: 0,
      endpointUrl: "https://pro.example.com/a",
      attemptLog: [],
    });
    expect((await gql(LIST, admin, { f: { user: "nobody-like-this" } })).data.esrtDeliveries.totalCount).toBe(
      0,
    );
    expect((await gql(LIST, admin, { f: { status: ["dead"] } })).data.esrtDeliveries.totalCount).toBe(0);
    expect((await gql(LIST, admin, { f: { after: "bad" } })).errors?.[0]?.extensions?.code).toBe(
      "BAD_REQUEST",
    );

    const redeliver = await gql(
      `mutation ($id: Int!) { redeliverEsrtDelivery(id: $id) { ... on AppError { code message } } }`,
      admin,
      { id: node.id },
    );
    expect(redeliver.data.redeliverEsrtDelivery).toEqual({
      code: "CONFLICT",
      message: "Only a delivered or dead delivery can be sent again",
    });

    // a dead one that is the latest goes back to pending with a fresh schedule
    await harness.db.prisma.esrtDelivery.update({
      where: { id: node.id },
      data: { status: "dead", attempts: 10, lastError: "HTTP 500" },
    });
    const replay = await gql(
      `mutation { replayFailedEsrtDeliveries(since: "2000-01-01T00:00:00Z") { ... on MutationReplayFailedEsrtDeliveriesSuccess { data } } }`,
      admin,
    );
    expect(replay.data.replayFailedEsrtDeliveries.data).toBe(1);
    expect(await harness.db.prisma.esrtDelivery.findUniqueOrThrow({ where: { id: node.id } })).toMatchObject({
      status: "pending",
      attempts: 0,
    });

    const overview = await gql(
      "{ esrtSyncOverview { counts { users synced pending failing dead } nats { enabled health } } }",
      admin,
    );
    expect(overview.data.esrtSyncOverview.counts).toMatchObject({ synced: 0 });
    expect(overview.data.esrtSyncOverview.nats).toEqual({ enabled: false, health: "disabled" });
  });

  it("resync all is a job with progress; a second one is refused while it runs", async () => {
    const admin = await signIn("mainAdmin");
    const START = `mutation { resyncAllEsrtUsers { __typename ... on AppError { code message } ... on MutationResyncAllEsrtUsersSuccess { data { id status total done } } } }`;
    const first = await gql(START, admin);
    expect(first.data.resyncAllEsrtUsers.data).toMatchObject({ status: "queued", done: 0 });
    const second = await gql(START, admin);
    expect(second.data.resyncAllEsrtUsers).toEqual({
      __typename: "AppError",
      code: "CONFLICT",
      message: "A resync of every user is already running",
    });
    const jobs = await gql("{ esrtJobs { id status total } }", admin);
    expect(jobs.data.esrtJobs[0]).toMatchObject({
      id: first.data.resyncAllEsrtUsers.data.id,
      status: "queued",
    });
  });
});

describe("API keys", () => {
  it("shows a new key once, lists it by prefix only, and a revoked key opens nothing", async () => {
    const admin = await signIn("mainAdmin");
    const empty = await gql(
      `mutation { createEsrtApiKey(name: "  ") { ... on AppError { code message } } }`,
      admin,
    );
    expect(empty.data.createEsrtApiKey).toEqual({ code: "VALIDATION_FAILED", message: "Name is required" });
    const made = await gql(
      `mutation { createEsrtApiKey(name: "ESRT Pro production") { ... on MutationCreateEsrtApiKeySuccess { data { key apiKey { id name prefix revokedAt } } } } }`,
      admin,
    );
    const { key, apiKey } = made.data.createEsrtApiKey.data;
    expect(key).toMatch(/^esrtk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: "ESRT Pro production", prefix: key.slice(0, 14), revokedAt: null });
    const listed = await gql("{ esrtApiKeys { id name prefix } }", admin);
    expect(listed.text).not.toContain(key.slice(14));
    const user = await createUser(harness.db, { userType: "client" });
    const lookUp = () =>
      request(harness.app)
        .get(`/api/users/by-uniqueid/${user.uniqueId}`)
        .set("Authorization", `Bearer ${key}`);
    expect((await lookUp()).status).toBe(200);
    const revoked = await gql(
      `mutation ($id: Int!) { revokeEsrtApiKey(id: $id) { ... on MutationRevokeEsrtApiKeySuccess { data { revokedAt } } } }`,
      admin,
      { id: apiKey.id },
    );
    expect(revoked.data.revokeEsrtApiKey.data.revokedAt).not.toBeNull();
    expect((await lookUp()).status).toBe(401);
  });
});
