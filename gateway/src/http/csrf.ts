import type { Config } from "@services/shared/config";
import type { NextFunction, Request, RequestHandler, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "Cross-site request refused";

/** The origins a browser page of the portal sends: PUBLIC_URL's, and the request's own host. */
function allowedOrigins(cfg: Config, req: Request): Set<string> {
  const origins = new Set<string>();
  if (cfg.PUBLIC_URL) origins.add(new URL(cfg.PUBLIC_URL).origin);
  const host = req.get("host");
  if (host) {
    origins.add(`${req.protocol}://${host}`);
    origins.add(`http://${host}`);
    origins.add(`https://${host}`);
  }
  return origins;
}

/**
 * The same-origin rule of every state-changing request, REST or GraphQL: whether an Origin header
 * names another origin than the portal's (PUBLIC_URL's or the request's own host), or the browser
 * says (Sec-Fetch-Site) that another site sent it. A request without either passes (not a browser,
 * or a same-origin GET-like navigation).
 */
export function isCrossSite(cfg: Config, req: Request): boolean {
  const origin = req.get("origin");
  return (
    (origin !== undefined && !allowedOrigins(cfg, req).has(origin)) ||
    req.get("sec-fetch-site") === "cross-site"
  );
}

/** Answers 403 'Cross-site request refused'. */
export function refuseCrossSite(res: Response): void {
  res.status(403).json({ message: CROSS_SITE_MESSAGE });
}

/**
 * CSRF defence for state-changing identity routes (SameSite=Lax cookies are the first line): a body
 * must be JSON (a cross-site form or text/plain POST gets 415 without being read), and a request
 * another site sent ({@link isCrossSite}) gets 403 'Cross-site request refused'.
 */
export function csrfGuard(cfg: Config): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (isCrossSite(cfg, req)) {
      refuseCrossSite(res);
      return;
    }
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if ((req.get("content-type") !== undefined || hasBody) && !req.is("application/json")) {
      res.status(415).json({ message: "Requests must send JSON (Content-Type: application/json)" });
      return;
    }
    next();
  };
}
