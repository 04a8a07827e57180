import type { RequestHandler } from "express";
import { securityHeaders } from "./security";

// The document the web app shows an email's HTML in (web/src/features/email/EmailParts.tsx). Emails
// are styled inline, which the app's CSP refuses, and a srcdoc frame would share the app's policy;
// so the frame loads this empty page, whose policy allows inline styles and images and nothing else
// (no script, no request of its own, framed by the portal only), and the app writes the email into it.

/** CSP of the email frame's document. */
export const emailFrameCspDirectives: Record<string, string[]> = {
  "default-src": ["'none'"],
  "style-src": ["'unsafe-inline'"],
  // as the app's img-src: emails show images from anywhere over https
  "img-src": ["'self'", "data:", "https:"],
  "frame-ancestors": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
};

const EMPTY_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Email</title></head><body></body></html>';

/** GET handlers of the email frame's document: its own security headers, then the empty page. */
export function emailFrameHandlers(): RequestHandler[] {
  return [
    securityHeaders(emailFrameCspDirectives),
    (_req, res) => {
      res.setHeader("Cache-Control", "public, max-age=3600");
      res.type("html").send(EMPTY_PAGE);
    },
  ];
}
