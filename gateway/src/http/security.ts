import type { RequestHandler } from "express";
import helmet from "helmet";

type CspDirectives = Record<string, string[]>;

/**
 * CSP of the web app: no inline script and no inline style. The Vite build loads only its own
 * scripts and stylesheets; React, Blueprint and its popovers set styles through the CSSOM, which
 * CSP does not restrict. An email's inline styles show in a frame whose page has a policy of its
 * own (./emailFrame.ts). docs/DECISIONS.md, "Production image and security headers".
 */
export const appCspDirectives: CspDirectives = {
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  // https: for the branding's logo, which an administrator may host elsewhere (issue 12)
  "img-src": ["'self'", "data:", "blob:", "https:"],
  "connect-src": ["'self'"],
  "font-src": ["'self'", "data:"],
  "object-src": ["'none'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
};

/**
 * CSP of the self-hosted GraphiQL page: its editor (Monaco) injects <style> elements and runs its
 * language services in blob: workers; everything else stays as strict as the app's.
 */
export const graphiqlCspDirectives: CspDirectives = {
  ...appCspDirectives,
  "style-src": ["'self'", "'unsafe-inline'"],
  // no branding logo here: images stay on the portal's own origin
  "img-src": ["'self'", "data:", "blob:"],
  "worker-src": ["'self'", "blob:"],
};

/**
 * CSP of the REST API's reference page (/api/docs, Swagger UI from swagger-ui-dist): the app's, but
 * images only from the portal itself and data: URLs (Swagger UI's icons), nothing from elsewhere.
 */
export const apiDocsCspDirectives: CspDirectives = {
  ...appCspDirectives,
  "img-src": ["'self'", "data:"],
};

/** The headers a helmet middleware sets, in its order, and the ones it removes: read once. */
function headersOf(middleware: RequestHandler): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const res = {
    setHeader(name: string, value: string) {
      set.push([name, value]);
      return res;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let failure: unknown;
  middleware(
    {} as Parameters<RequestHandler>[0],
    res as unknown as Parameters<RequestHandler>[1],
    (err?: unknown) => {
      failure = err;
    },
  );
  if (failure) throw failure;
  return { set, removed };
}

/** HSTS for a year, subdomains included (helmet's default value); no preload. */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * helmet with the given CSP (no upgrade-insecure-requests: the portal may run on plain http on a LAN).
 * None of its headers depends on the request (the directives are fixed strings, no nonces): helmet
 * runs once, here, and each request gets the very headers it set, in its order, with one call per
 * header instead of twelve middlewares and a CSP string built anew. Strict-Transport-Security goes
 * only on an answer over HTTPS (`req.secure`: TLS, or X-Forwarded-Proto from a proxy TRUST_PROXY
 * trusts), as RFC 6797 has browsers ignore it over http anyway.
 */
export function securityHeaders(directives: CspDirectives = appCspDirectives): RequestHandler {
  const { set, removed } = headersOf(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    }),
  );
  return (req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    if (req.secure) res.setHeader("Strict-Transport-Security", HSTS);
    next();
  };
}
