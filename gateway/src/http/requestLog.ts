import { performance } from "node:perf_hooks";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { requestIdFor } from "./requestId";

declare module "node:http" {
  interface IncomingMessage {
    /** the request id (x-request-id), set by {@link requestLog} */
    id: string;
    /** the HTTP logger; log lines about a request carry its id as `requestId` */
    log: Logger;
  }
}

/**
 * A request URL as the HTTP log keeps it: the value of every `token` query parameter (whatever its
 * case or encoding) replaced by "redacted", so no one-time link lands in a log.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .replace(/(^|&)((?:[^=&]*?)(?:token|%74%6f%6b%65%6e)(?:[^=&]*?))=[^&#]*/gi, "$1$2=redacted");
  return `${url.slice(0, q)}?${query}`;
}

/**
 * The access log: gives each request its id (echoed in x-request-id) and, when its answer is sent
 * or the client goes away, writes one line: `{ req: { id, method, url }, res: { statusCode },
 * responseTime }`, at error for a 5xx, warn for a 4xx or an aborted request, info otherwise. URLs
 * are redacted ({@link redactUrl}); `quietPaths` (probes) are not logged. One listener per request
 * (which also feeds `onAnswered`, the HTTP metrics), no logger made per request.
 */
export function requestLog(options: {
  logger: Logger;
  quietPaths?: ReadonlySet<string>;
  /** also called once per answer sent (not for an aborted request), with its duration in seconds */
  onAnswered?: (req: Request, res: Response, seconds: number) => void;
}): RequestHandler {
  const log = options.logger;
  // The access line carries only the fields below, its URL already redacted: nothing for the
  // logger's redaction paths to find, so its line skips them (about half the line's cost).
  // `req.log`, which other code logs with, keeps them.
  const access = log.child({}, { redact: { paths: [] } });
  const quiet = options.quietPaths ?? new Set<string>();
  const onAnswered = options.onAnswered;
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = requestIdFor(req, res);
    req.id = id;
    req.log = log;
    const url = req.url;
    const q = url.indexOf("?");
    const logged = !quiet.has(q < 0 ? url : url.slice(0, q));
    res.once("close", () => {
      const ms = performance.now() - started;
      const finished = res.writableFinished;
      if (finished) onAnswered?.(req, res, ms / 1000);
      if (!logged) return;
      const status = res.statusCode;
      const level = status >= 500 ? "error" : status >= 400 || !finished ? "warn" : "info";
      access[level](
        {
          req: { id, method: req.method, url: redactUrl(url) },
          res: { statusCode: status },
          responseTime: Math.round(ms),
        },
        finished ? "request completed" : "request aborted",
      );
    });
    next();
  };
}
