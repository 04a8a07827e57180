import { Writable } from "node:stream";
import { type IdentityApp, identityApp } from "@gateway/testing/identityHarness";
import pino from "pino";
import request from "supertest";

// The HTTP log must never hold a one-time token from a link's query string.

const lines: string[] = [];
let h: IdentityApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  h = await identityApp({}, { httpLogger: pino({ level: "info" }, sink) });
});
afterAll(async () => {
  await h.close();
});

describe("the HTTP request log", () => {
  it("replaces token values in logged URLs and keeps the rest", async () => {
    const secret = "a1b2c3d4e5f6deadbeefcafe0123456789";
    await request(h.app).get(`/auth?mode=reset-password&token=${secret}`);
    await request(h.app).get(`/api/user?resetToken=${secret}x&page=2`);
    await request(h.app).get(`/auth?TOKEN=${secret}y#frag`);
    const logged = lines.join("");
    expect(logged).not.toContain(secret);
    expect(logged).toContain("/auth?mode=reset-password&token=redacted");
    expect(logged).toContain("/api/user?resetToken=redacted&page=2");
    expect(logged).toContain("/auth?TOKEN=redacted");
  });

  it("writes one line per request with its id, method, URL, status and time, at a level by status", async () => {
    lines.length = 0;
    const ok = await request(h.app).get("/api/server-config").set("x-request-id", "req-log-test-0001");
    expect(ok.headers["x-request-id"]).toBe("req-log-test-0001");
    await request(h.app).get("/api/user");
    await request(h.app).get("/healthz");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = entries.filter((e) => e.msg === "request completed");
    expect(completed).toEqual([
      expect.objectContaining({
        level: 30,
        req: { id: "req-log-test-0001", method: "GET", url: "/api/server-config" },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({
        level: 40,
        req: expect.objectContaining({ url: "/api/user" }),
        res: { statusCode: 401 },
      }),
    ]);
    // probes are not logged
    expect(entries.some((e) => JSON.stringify(e).includes("/healthz"))).toBe(false);
  });
});
