import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import request from "supertest";
import { buildTestApp, fakeWebDist, redisSessionStore, testConfig, testRedis } from "../testing/appHarness";
import { graphiqlRouter } from "./router";

describe("GraphiQL", () => {
  const dist = mkdtempSync(path.join(tmpdir(), "portal-graphiql-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=graphiql>graphiql page</div>");
  writeFileSync(path.join(dist, "assets", "index-abc.js"), "export {};");
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const app = express().use("/graphiql", graphiqlRouter(dist));

  it("serves the page with its own CSP allowing Monaco's styles and workers, and no CDN", async () => {
    const res = await request(app).get("/graphiql/").expect(200);
    expect(res.text).toContain("graphiql page");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).not.toMatch(/https?:/);
  });

  it("redirects /graphiql to /graphiql/ and serves hashed assets immutable", async () => {
    await request(app).get("/graphiql").expect(301).expect("Location", "/graphiql/");
    const res = await request(app).get("/graphiql/assets/index-abc.js").expect(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("answers 503 with the build command when not built", async () => {
    const bare = express().use("/graphiql", graphiqlRouter(path.join(dist, "missing")));
    const res = await request(bare).get("/graphiql/").expect(503);
    expect(res.text).toContain("npm run graphiql:build");
  });

  it("is not mounted in production", async () => {
    const redis = await testRedis();
    const web = fakeWebDist();
    const cfg = testConfig({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) });
    const prod = await buildTestApp({
      config: cfg,
      sessionStore: redisSessionStore(redis, cfg),
      webDist: web.dir,
    });
    try {
      const res = await request(prod.app).get("/graphiql/").expect(200);
      // the web app's index answers instead (its own 404 page), under the app's strict CSP
      expect(res.text).toContain("portal app");
      expect(String(res.headers["content-security-policy"])).not.toContain("unsafe-inline'; ");
      expect(String(res.headers["content-security-policy"])).toMatch(/style-src 'self'(;|$)/);
    } finally {
      await prod.stop();
      redis.destroy();
      web.remove();
    }
  });
});
