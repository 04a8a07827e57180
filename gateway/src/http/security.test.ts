import express from "express";
import request from "supertest";
import { HSTS, securityHeaders } from "./security";

// The security headers of every answer (issue 20 §3): a CSP with no inline script or style, and
// HSTS only on an answer over HTTPS. The production process sends the same (scripts/runtimeImage.test.ts).

/** An app behind the given Express trust-proxy setting (TRUST_PROXY; the default is loopback). */
function appBehind(trustProxy: string | boolean) {
  return express()
    .set("trust proxy", trustProxy)
    .use(securityHeaders())
    .get("/", (_req, res) => {
      res.send("ok");
    });
}

describe("security headers", () => {
  it("allows no inline script or style in the app's CSP", async () => {
    const res = await request(appBehind("loopback")).get("/").expect(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/(^|;)script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|;)style-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("style-src-attr");
  });

  it("sends no HSTS over plain http", async () => {
    const res = await request(appBehind("loopback")).get("/").expect(200);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS when a trusted proxy says the request came over HTTPS", async () => {
    const res = await request(appBehind("loopback")).get("/").set("X-Forwarded-Proto", "https").expect(200);
    expect(res.headers["strict-transport-security"]).toBe(HSTS);
    expect(HSTS).toBe("max-age=31536000; includeSubDomains");
  });

  it("ignores X-Forwarded-Proto from a peer that is not a trusted proxy", async () => {
    const res = await request(appBehind(false)).get("/").set("X-Forwarded-Proto", "https").expect(200);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });
});
