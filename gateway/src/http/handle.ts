import type { NextFunction, Request, RequestHandler, Response } from "express";
import { normalizeError } from "../errors";

/**
 * Wraps an async REST handler: an error goes to the error handler, and a rate-limit refusal gets its
 * Retry-After header first.
 */
export function handle(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch((err: unknown) => {
      const appError = normalizeError(err);
      const retryAfter = appError.details?.retryAfter;
      if (appError.code === "RATE_LIMITED" && typeof retryAfter === "number" && !res.headersSent) {
        res.setHeader("Retry-After", String(retryAfter));
      }
      next(appError);
    });
  };
}
