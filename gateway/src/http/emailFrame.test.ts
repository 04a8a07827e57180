import { EMAIL_FRAME_PATH } from "@schema/api/emailFrame";
import express from "express";
import request from "supertest";
import { emailFrameHandlers } from "./emailFrame";
import { securityHeaders } from "./security";

// The empty page email previews are written into: its own CSP allows inline styles and images,
// nothing else, and only the portal may frame it (the app's own policy: ./security.test.ts).

describe("the email frame's page", () => {
  const app = express()
    .use(securityHeaders())
    .get(EMAIL_FRAME_PATH, ...emailFrameHandlers());

  it("is an empty page whose policy allows inline styles and images only, framed by the portal", async () => {
    const res = await request(app).get(EMAIL_FRAME_PATH).expect(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.text).toMatch(/<body><\/body>/);
    const csp = String(res.headers["content-security-policy"]).split(";");
    expect(csp).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "frame-ancestors 'self'",
        "form-action 'none'",
      ]),
    );
    expect(csp.filter((directive) => /^(script|connect|frame|object)-src/.test(directive))).toEqual([]);
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });
});
