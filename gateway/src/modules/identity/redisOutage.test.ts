import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "@gateway/app";
import { fakeWebDist, testConfig } from "@gateway/testing/appHarness";
import { config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { connectRedis, pingRedis, REDIS_COMMAND_TIMEOUT_MS, type RedisClient } from "@services/shared/redis";
import { createSessionStore } from "@services/shared/sessionStore";
import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import { type PrivateRedis, startPrivateRedis } from "@services/shared/testing/privateRedis";

// Redis away, as an operator meets it: killed, or frozen by a partition (SIGSTOP). Every request
// that needs Redis answers 503 within two seconds (four times the 500 ms command deadline, so that
// a busy 2-core machine running a dozen of them at once stays inside it; a hang would last until
// the client gave up, far longer), none hangs; /readyz says so as fast; when
// Redis returns, the very next request succeeds and within two seconds everything does. The portal
// runs on a redis-server of this file's own, so stopping it disturbs no other test.

const BUDGET_MS = 2000;

let redis: PrivateRedis;
let client: RedisClient;
let db: Db;
let server: Server;
let base: string;
let stopApp: () => Promise<void>;
const web = fakeWebDist();

interface Answer {
  status: number;
  ms: number;
  body: string;
  cookie: string | null;
}

/** One HTTP call; a call that takes longer than 5 s counts as hung (status 0). */
async function call(method: string, path: string, body?: unknown, cookie?: string): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
    const cookieHeader = cookies.length > 0 ? cookies.join("; ") : null;
    return { status: res.status, ms: performance.now() - started, body: text, cookie: cookieHeader };
  } catch {
    return { status: 0, ms: performance.now() - started, body: "hung", cookie: null };
  }
}

/** Registers a new person named `username`. */
const register = (username: string, firstName: string, lastName: string) =>
  call("POST", "/api/register", {
    username,
    email: `${username}@example.test`,
    password: TEST_PASSWORD,
    firstName,
    lastName,
  });

/** A GraphQL request's answer, with the HTTP status Apollo gave it. */
const graphql = (query: string, variables: Record<string, unknown>, cookie?: string) =>
  call("POST", "/graphql", { query, variables }, cookie);

/** Signs a fresh user in while Redis is up; answers the session cookie. */
async function signedInCookie(): Promise<string> {
  const user = await createUser(db);
  const res = await call("POST", "/api/login", { login: user.username, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  if (!res.cookie) throw new Error("no session cookie");
  return res.cookie;
}

/** Every call an outage must answer quickly, given a session cookie made before it. */
function outageCalls(cookie: string): [string, () => Promise<Answer>][] {
  const name = `outage_${uniqueSuffix()}`;
  return [
    ["REST login", () => call("POST", "/api/login", { login: "someone", password: "Whatever-1!" })],
    [
      "GraphQL login",
      () =>
        graphql("mutation($l: String!, $p: String!) { login(login: $l, password: $p) { __typename } }", {
          l: "someone",
          p: "Whatever-1!",
        }),
    ],
    ["register", () => register(name, "Out", "Age")],
    ["reset-password", () => call("POST", "/api/reset-password", { email: "someone@example.test" })],
    ["verify-email", () => call("POST", "/api/verify-email", { token: "a".repeat(43) })],
    ["logout", () => call("POST", "/api/logout", undefined, cookie)],
    ["current user", () => call("GET", "/api/user", undefined, cookie)],
    ["GraphQL me", () => graphql("{ me { id } }", {}, cookie)],
  ];
}

/**
 * Runs every outage call at once (as concurrent users would), `rounds` times `pauseMs` apart, and
 * expects each to be refused 503 within the budget, without internals in the body.
 */
async function expectFastRefusals(cookie: string, rounds: number, pauseMs: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const calls = outageCalls(cookie);
    const answers = await Promise.all([...calls.map(([, run]) => run()), call("GET", "/readyz")]);
    const names = [...calls.map(([name]) => name), "readyz"];
    const wrong = answers
      .map((answer, i) => ({ round, name: names[i], status: answer.status, ms: Math.round(answer.ms) }))
      .filter((seen) => seen.status !== 503 || seen.ms >= BUDGET_MS);
    expect(wrong).toEqual([]);
    for (const answer of answers) expect(answer.body).not.toMatch(/ at |node_modules|\.ts:/);
  }
}

/** After Redis returns: the next sign-in succeeds at once, and within 2 s every kind of call does. */
async function expectRecovery(): Promise<void> {
  const user = await createUser(db);
  const first = await call("POST", "/api/login", { login: user.username, password: TEST_PASSWORD });
  expect(first.status).toBe(200);
  const cookie = first.cookie ?? "";
  const deadline = Date.now() + 2000;
  const name = `back_${uniqueSuffix()}`;
  const checks: [string, () => Promise<Answer>, number][] = [
    ["current user", () => call("GET", "/api/user", undefined, cookie), 200],
    ["GraphQL me", () => graphql("{ me { id } }", {}, cookie), 200],
    ["readyz", () => call("GET", "/readyz"), 200],
    ["reset-password", () => call("POST", "/api/reset-password", { email: "someone@example.test" }), 200],
    ["register", () => register(name, "Back", "Again"), 201],
    ["logout", () => call("POST", "/api/logout", undefined, cookie), 200],
  ];
  for (const [name, run, status] of checks) {
    const answer = await run();
    expect({ name, status: answer.status }).toEqual({ name, status });
  }
  expect(Date.now()).toBeLessThan(deadline);
}

const savedConfig = config();

beforeAll(async () => {
  // the product's own deadline (the suite runs with a longer one: scripts/jest/globalSetup.ts)
  setConfig({ ...savedConfig, REDIS_TIMEOUT_MS: REDIS_COMMAND_TIMEOUT_MS });
  redis = await startPrivateRedis();
  client = await connectRedis(redis.url);
  db = await testDb();
  const cfg = testConfig();
  const { app, stop } = await createApp({
    config: cfg,
    db,
    readiness: { postgres: () => db.ping(), redis: () => pingRedis(client) },
    sessionStore: createSessionStore({ redis: client, prefix: cfg.REDIS_PREFIX }),
    redis: client,
    webDist: web.dir,
  });
  stopApp = stop;
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stopApp();
  client.destroy();
  await redis.stop();
  web.remove();
  setConfig(savedConfig);
});

describe("the portal while its Redis is away", () => {
  it("answers every Redis-bound request 503 within two seconds while Redis is killed, and recovers", async () => {
    const cookie = await signedInCookie();
    expect((await call("GET", "/api/user", undefined, cookie)).status).toBe(200);
    await redis.kill();
    // several rounds over a few seconds: the answer must not slow down as reconnection backs off (its
    // pause reaches REDIS_MAX_BACKOFF_MS, 200 ms, after the third attempt; the rounds span about ten
    // times that)
    await expectFastRefusals(cookie, 5, 400);
    // public reads need no Redis
    expect((await call("GET", "/api/server-config")).status).toBe(200);
    await redis.start();
    await expectRecovery();
  });

  it("answers every Redis-bound request 503 within two seconds while Redis is frozen, and recovers", async () => {
    const cookie = await signedInCookie();
    redis.freeze();
    try {
      await expectFastRefusals(cookie, 3, 300);
    } finally {
      redis.thaw();
    }
    await expectRecovery();
    // the session made before the freeze is still good: nothing was lost
    expect((await call("GET", "/api/user", undefined, cookie)).status).toBe(200);
  });
});
