import net from "node:net";
import express from "express";
import { Client } from "pg";
import request from "supertest";
import { READINESS_TIMEOUT_MS, readinessHandler } from "./readiness";

// /readyz must answer within 1 s even while a backing service is away or frozen (SIGSTOP): a frozen
// server accepts the connection and never says a word, which is what this silent server does.

let silent: net.Server;
let port = 0;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  port = typeof address === "object" && address ? address.port : 0;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

/** A Redis PING over a raw connection: resolves on the first byte of an answer. */
function pingSilent(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
    socket.once("data", () => {
      socket.destroy();
      resolve();
    });
    socket.once("error", reject);
  });
}

/** A PostgreSQL connection to the silent server: the start-up message is never answered. */
async function connectSilentPostgres(): Promise<void> {
  const client = new Client({ host: "127.0.0.1", port, user: "portal", database: "portal" });
  client.on("error", () => undefined);
  await client.connect();
  await client.end();
}

/**
 * How long each answer took the app, from the request's arrival to the answer's last byte (what the
 * portal is answerable for: a loaded test machine's client-side set-up once took 510 ms more).
 */
const answeredMs: number[] = [];

function appWith(checks: Parameters<typeof readinessHandler>[0]) {
  const app = express();
  app.use((_req, res, next) => {
    const started = performance.now();
    res.on("finish", () => answeredMs.push(performance.now() - started));
    next();
  });
  app.get("/readyz", readinessHandler(checks));
  return app;
}

describe("GET /readyz", () => {
  it("bounds each check well under 1 s", () => {
    expect(READINESS_TIMEOUT_MS).toBeLessThanOrEqual(600);
  });

  it("answers within 1 s, naming each service and its mode, while two of them never answer", async () => {
    const app = appWith({
      database: { mode: "postgres", check: connectSilentPostgres },
      sessions: { mode: "redis", check: pingSilent },
      events: { mode: "jetstream", check: () => new Promise<void>(() => undefined) },
      storage: async () => undefined,
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await request(app).get("/readyz").expect(503);
      expect(answeredMs.at(-1)).toBeLessThan(1000);
      expect(res.body).toEqual({
        status: "unavailable",
        checks: { database: "timeout", sessions: "timeout", events: "timeout", storage: "ok" },
        failing: ["database", "sessions", "events"],
        modes: { database: "postgres", sessions: "redis", events: "jetstream" },
      });
      expect(res.headers["cache-control"]).toBe("no-store");
    }
    // the checks really did reach the silent server
    expect(sockets.size).toBeGreaterThanOrEqual(2);
  });

  it("answers several probes at once, each within 1 s", async () => {
    const app = appWith({ sessions: { mode: "redis", check: pingSilent } });
    answeredMs.length = 0;
    const answers = await Promise.all(Array.from({ length: 5 }, () => request(app).get("/readyz")));
    expect(answeredMs).toHaveLength(5);
    for (const ms of answeredMs) expect(ms).toBeLessThan(1000);
    for (const res of answers) expect(res.body.checks).toEqual({ sessions: "timeout" });
  });

  it("reports ready with the mode of each service when every check passes", async () => {
    const app = appWith({
      database: { mode: "embedded", check: async () => undefined },
      sessions: { mode: "memory", check: async () => undefined },
      events: { mode: "in-process", check: async () => undefined },
    });
    const res = await request(app).get("/readyz").expect(200);
    expect(res.body).toEqual({
      status: "ready",
      checks: { database: "ok", sessions: "ok", events: "ok" },
      modes: { database: "embedded", sessions: "memory", events: "in-process" },
    });
  });
});
