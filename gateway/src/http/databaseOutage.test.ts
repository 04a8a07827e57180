import net from "node:net";
import { buildRedisApp, type RedisApp } from "@gateway/testing/appHarness";
import { sessionFor } from "@gateway/testing/fixtures";
import { connectPostgres, type Db } from "@services/shared/db";
import { isDatabaseUnavailable } from "@services/shared/dbUnavailable";
import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import request from "supertest";

// PostgreSQL reached through a TCP relay the test can cut, as a database server that goes away
// would: requests that need it answer 503 with Retry-After and a message, at once, never 500.

interface Relay {
  port: number;
  /** stops accepting connections and drops every open one */
  cut(): Promise<void>;
}

async function relayTo(host: string, port: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe("requests while PostgreSQL is away", () => {
  let relay: Relay;
  let db: Db;
  let harness: RedisApp;
  let cookie: string;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL ?? "");
    relay = await relayTo(url.hostname, Number(url.port || 5432));
    url.hostname = "127.0.0.1";
    url.port = String(relay.port);
    db = await connectPostgres(url.toString());
    harness = await buildRedisApp(() => ({ db, readiness: {} }));
    const user = await createUser(await testDb(), { userType: "client" });
    cookie = await sessionFor(harness.app, user.username);
    await relay.cut();
  });

  afterAll(async () => {
    await harness.stop();
    await db.close().catch(() => undefined);
  });

  it("answers REST 503 with Retry-After and the portal's message, within a second", async () => {
    for (const send of [
      () => request(harness.app).get("/api/user").set("Cookie", cookie),
      () => request(harness.app).post("/api/user/notes").set("Cookie", cookie).send({ notes: "kept" }),
      () => request(harness.app).post("/api/login").send({ login: "someone", password: "Whatever-1!" }),
    ]) {
      const started = Date.now();
      const res = await send();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.body).toMatchObject({
        code: "UNAVAILABLE",
        message: "The portal is temporarily unavailable. Please try again shortly.",
      });
      expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|prisma|reach/i);
    }
  });

  it("answers GraphQL 503 the same way for a signed-in caller (whose user is read first)", async () => {
    const res = await request(harness.app)
      .post("/graphql")
      .set("Cookie", cookie)
      .send({ query: "{ myAppointments { id } }" });
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.body).toMatchObject({
      code: "UNAVAILABLE",
      message: "The portal is temporarily unavailable. Please try again shortly.",
    });
  });
});

describe("isDatabaseUnavailable", () => {
  it("knows a lost server, a full pool, a statement timeout and an expired transaction, not a bad query", () => {
    const adapter = (cause: object) => ({ code: "P2010", meta: { driverAdapterError: { cause } } });
    expect(isDatabaseUnavailable(adapter({ kind: "DatabaseNotReachable" }))).toBe(true);
    expect(isDatabaseUnavailable(adapter({ kind: "postgres", code: "57014" }))).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2024" })).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2028" })).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: { code: "ECONNREFUSED" } }))).toBe(true);
    expect(isDatabaseUnavailable(adapter({ kind: "postgres", code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable({ code: "P2002" })).toBe(false);
    expect(isDatabaseUnavailable(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});
