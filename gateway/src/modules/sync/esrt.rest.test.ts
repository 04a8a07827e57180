import { identityAppFixture, signInOk } from "@gateway/testing/fixtures";
import { expectInContract } from "@gateway/testing/openApiContract";
import { applySnapshot, createApiKey, revokeApiKey } from "@services/esrt-sync";
import type { User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { syncSnapshot } from "@services/user";
import request from "supertest";
import { API_KEY_ELSEWHERE_MESSAGE, API_KEY_REFUSED_MESSAGE } from "./esrt.rest";

// The Pro app's two REST routes: GET /api/users/by-uniqueid/{uniqueId} and POST /api/esrt/ack, for
// every kind of caller (signed out, the owner, another client, a prospect, a userAdmin, a mainAdmin,
// an API key, a revoked key), and the rule that a key opens those two routes and nothing else.

const keys: string[] = [];

const h = identityAppFixture({}, { noLeaks: () => keys });

/** Sends `test`, keeps its answer for the secrets scan, and expects it to hold to the OpenAPI document. */
async function call(test: request.Test): Promise<request.Response> {
  const res = await test;
  h.bodies.push(res.text);
  expectInContract(res);
  return res;
}

function signIn(user: User): Promise<string> {
  return signInOk(h.app, user.username, TEST_PASSWORD, h.bodies);
}

async function newKey(): Promise<string> {
  const { key } = await createApiKey({ db: h.db, name: "Pro app", actorId: null });
  keys.push(key);
  return key;
}

async function revokedKey(): Promise<string> {
  const { apiKey, key } = await createApiKey({ db: h.db, name: "Old Pro app", actorId: null });
  keys.push(key);
  await revokeApiKey({ db: h.db, id: apiKey.id, actorId: null });
  return key;
}

/** A client whose sync state holds versions 1..latest (what the snapshot consumer keeps). */
async function syncedClient(latest = 2): Promise<User> {
  const user = await createUser(h.db, { userType: "client", companyName: "Acme" });
  for (let version = 1; version <= latest; version++) {
    await h.db.prisma.$transaction((tx) =>
      applySnapshot(tx, { userId: user.id, snapshot: { ...syncSnapshot(user), version } }),
    );
  }
  return user;
}

type Caller =
  | "anon"
  | "owner"
  | "otherClient"
  | "prospect"
  | "userAdmin"
  | "mainAdmin"
  | "key"
  | "revokedKey";

/** The headers a caller sends: a session cookie, a Bearer key, or nothing. */
async function headersOf(caller: Caller, owner: User): Promise<Record<string, string>> {
  const session = (type: UserType) =>
    (type === "userAdmin" || type === "mainAdmin"
      ? createAdmin(h.db, { userType: type })
      : createUser(h.db, { userType: type })
    )
      .then(signIn)
      .then((cookie) => ({ Cookie: cookie }));
  switch (caller) {
    case "anon":
      return {};
    case "owner":
      return { Cookie: await signIn(owner) };
    case "otherClient":
      return session("client");
    case "prospect":
      return session("prospect");
    case "userAdmin":
      return session("userAdmin");
    case "mainAdmin":
      return session("mainAdmin");
    case "key":
      return { Authorization: `Bearer ${await newKey()}` };
    case "revokedKey":
      return { Authorization: `Bearer ${await revokedKey()}` };
  }
}

describe("GET /api/users/by-uniqueid/:uniqueId", () => {
  const matrix: [Caller, number][] = [
    ["anon", 401],
    ["revokedKey", 401],
    ["otherClient", 403],
    ["prospect", 403],
    ["owner", 200],
    ["userAdmin", 200],
    ["mainAdmin", 200],
    ["key", 200],
  ];

  it.each(matrix)("answers %s with %i", async (caller, status) => {
    const owner = await syncedClient();
    const headers = await headersOf(caller, owner);
    const res = await call(request(h.app).get(`/api/users/by-uniqueid/${owner.uniqueId}`).set(headers));
    expect(res.status).toBe(status);
    expect(res.headers["cache-control"]).toBe("no-store");
    if (status === 200) {
      // the public fields only, today's shape
      expect(res.body).toEqual({
        id: owner.id,
        uniqueId: owner.uniqueId,
        firstName: owner.firstName,
        lastName: owner.lastName,
        companyName: "Acme",
        esrtSynced: false,
      });
    } else {
      expect(typeof res.body.message).toBe("string");
    }
    if (caller === "revokedKey") expect(res.body.message).toBe(API_KEY_REFUSED_MESSAGE);
  });

  it("answers 404 for an unknown uniqueId to a key and a manager, 403 to anyone else", async () => {
    const owner = await syncedClient();
    const path = "/api/users/by-uniqueid/ESRT-NOBODY99";
    const statusFor = async (who: Parameters<typeof headersOf>[0]) =>
      (
        await call(
          request(h.app)
            .get(path)
            .set(await headersOf(who, owner)),
        )
      ).status;
    expect(await statusFor("key")).toBe(404);
    expect(await statusFor("userAdmin")).toBe(404);
    expect(await statusFor("owner")).toBe(403);
  });

  it("refuses a malformed, unknown or empty Bearer key 401 without falling back to the session", async () => {
    const owner = await syncedClient();
    const cookie = await signIn(owner);
    for (const authorization of ["Bearer nope", `Bearer esrtk_${"A".repeat(43)}`, "Bearer", "bearer  "]) {
      const res = await call(
        request(h.app)
          .get(`/api/users/by-uniqueid/${owner.uniqueId}`)
          .set({ Cookie: cookie, Authorization: authorization }),
      );
      expect(res.status).toBe(401);
      expect(res.headers["www-authenticate"]).toContain("Bearer");
    }
  });

  it("shows esrtSynced as the user service keeps it", async () => {
    const owner = await syncedClient();
    await h.db.prisma.user.update({ where: { id: owner.id }, data: { esrtSynced: true } });
    const res = await call(
      request(h.app)
        .get(`/api/users/by-uniqueid/${owner.uniqueId}`)
        .set(await headersOf("key", owner)),
    );
    expect(res.body.esrtSynced).toBe(true);
  });

  it("a key's request reads and makes no session", async () => {
    const owner = await syncedClient();
    const res = await call(
      request(h.app)
        .get(`/api/users/by-uniqueid/${owner.uniqueId}`)
        .set(await headersOf("key", owner)),
    );
    expect(res.status).toBe(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});

describe("POST /api/esrt/ack", () => {
  const matrix: [Caller, number][] = [
    ["anon", 401],
    ["revokedKey", 401],
    ["owner", 403],
    ["otherClient", 403],
    ["prospect", 403],
    ["userAdmin", 200],
    ["mainAdmin", 200],
    ["key", 200],
  ];

  it.each(matrix)("answers %s with %i", async (caller, status) => {
    const owner = await syncedClient(2);
    const headers = await headersOf(caller, owner);
    const res = await call(
      request(h.app).post("/api/esrt/ack").set(headers).send({ uniqueId: owner.uniqueId, version: 2 }),
    );
    expect(res.status).toBe(status);
    const state = await h.db.prisma.esrtUserState.findUniqueOrThrow({ where: { userId: owner.id } });
    if (status === 200) {
      expect(res.body).toEqual({
        uniqueId: owner.uniqueId,
        acknowledgedVersion: 2,
        latestVersion: 2,
        esrtSynced: true,
      });
      expect(state).toMatchObject({ acknowledgedVersion: 2, acknowledgedVia: "api" });
    } else {
      expect(typeof res.body.message).toBe("string");
      expect(state.acknowledgedVersion).toBe(0);
    }
  });

  it.each(["key", "mainAdmin"] as const)(
    "as %s: 400 for a bad body, 404 unknown user, 409 version too new",
    async (caller) => {
      const owner = await syncedClient(2);
      const headers = await headersOf(caller, owner);
      const post = (body: unknown) =>
        call(
          request(h.app)
            .post("/api/esrt/ack")
            .set(headers)
            .send(body as object),
        );
      for (const body of [
        {},
        { uniqueId: owner.uniqueId },
        { uniqueId: owner.uniqueId, version: 0 },
        { uniqueId: owner.uniqueId, version: 1.5 },
        { uniqueId: owner.uniqueId, version: "2" },
        { uniqueId: "", version: 1 },
        { uniqueId: "a\u0000b", version: 1 },
        [],
      ]) {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_FAILED");
      }
      const unknown = await post({ uniqueId: "ESRT-NOBODY99", version: 1 });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe("User not found");
      const tooNew = await post({ uniqueId: owner.uniqueId, version: 3 });
      expect(tooNew.status).toBe(409);
      expect(tooNew.body.message).toMatch(/newer than the user's latest version/);
      // an older ack than the one held changes nothing and answers the state
      expect((await post({ uniqueId: owner.uniqueId, version: 2 })).status).toBe(200);
      const older = await post({ uniqueId: owner.uniqueId, version: 1 });
      expect(older.body).toMatchObject({ acknowledgedVersion: 2, esrtSynced: true });
    },
  );

  it("emits esrt.user_sync_changed when the ack is news", async () => {
    const owner = await syncedClient(1);
    await call(
      request(h.app)
        .post("/api/esrt/ack")
        .set(await headersOf("key", owner))
        .send({ uniqueId: owner.uniqueId, version: 1 }),
    );
    const reports = await h.db.prisma.$queryRaw<{ synced: boolean }[]>`
      SELECT (envelope->'payload'->>'synced')::boolean AS synced FROM outbox_events
      WHERE type = 'esrt.user_sync_changed' AND (envelope->'payload'->>'userId')::int = ${owner.id}
      ORDER BY (envelope->'payload'->>'seq')::int DESC LIMIT 1`;
    expect(reports[0]?.synced).toBe(true);
  });

  it("keeps the JSON and same-origin rules for keys and sessions alike", async () => {
    const owner = await syncedClient(1);
    for (const caller of ["key", "mainAdmin"] as const) {
      const headers = await headersOf(caller, owner);
      const body = JSON.stringify({ uniqueId: owner.uniqueId, version: 1 });
      const crossSite = await call(
        request(h.app)
          .post("/api/esrt/ack")
          .set({ ...headers, Origin: "https://evil.example", "Content-Type": "application/json" })
          .send(body),
      );
      expect(crossSite.status).toBe(403);
      const fetchSite = await call(
        request(h.app)
          .post("/api/esrt/ack")
          .set({ ...headers, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" })
          .send(body),
      );
      expect(fetchSite.status).toBe(403);
      const plain = await call(
        request(h.app)
          .post("/api/esrt/ack")
          .set({ ...headers, "Content-Type": "text/plain" })
          .send(body),
      );
      expect(plain.status).toBe(415);
    }
    expect(
      (await h.db.prisma.esrtUserState.findUniqueOrThrow({ where: { userId: owner.id } }))
        .acknowledgedVersion,
    ).toBe(0);
  });
});

describe("an API key opens nothing else", () => {
  it("is refused 401 on GET /api/user, POST /api/user/notes, /graphql and the uploads, even beside a session", async () => {
    const owner = await syncedClient();
    const cookie = await signIn(owner);
    const bearer = `Bearer ${await newKey()}`;
    for (const headers of [{ Authorization: bearer }, { Authorization: bearer, Cookie: cookie }]) {
      const me = await call(request(h.app).get("/api/user").set(headers));
      expect(me.status).toBe(401);
      expect(me.body.message).toBe(API_KEY_ELSEWHERE_MESSAGE);
      const notes = await call(request(h.app).post("/api/user/notes").set(headers).send({ notes: "hello" }));
      expect(notes.status).toBe(401);
      const graphql = await call(
        request(h.app).post("/graphql").set(headers).send({ query: "{ me { id } }" }),
      );
      expect(graphql.status).toBe(401);
      const uploads = await call(
        request(h.app)
          .post("/api/uploads")
          .set({ ...headers, "Tus-Resumable": "1.0.0" }),
      );
      expect(uploads.status).toBe(401);
      const other = await call(request(h.app).get("/api/admin/appointments").set(headers));
      expect(other.status).toBe(401);
    }
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).notes).not.toBe("hello");
  });

  it("another Authorization scheme (a proxy's Basic) leaves the session as it was", async () => {
    const owner = await syncedClient();
    const cookie = await signIn(owner);
    const res = await call(
      request(h.app).get("/api/user").set({ Cookie: cookie, Authorization: "Basic dTpw" }),
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(owner.id);
    const own = await call(
      request(h.app)
        .get(`/api/users/by-uniqueid/${owner.uniqueId}`)
        .set({ Cookie: cookie, Authorization: "Basic dTpw" }),
    );
    expect(own.status).toBe(200);
  });
});
