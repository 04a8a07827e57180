import { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
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

/**
 * A router whose one route, GET /, answers what `read` finds, which browsers revalidate on each read
 * (Cache-Control: no-cache; an unchanged answer is a 304): a public setting every page reads.
 */
export function revalidatedReadRouter(read: () => Promise<unknown>): Router {
  const router = Router();
  router.get(
    "/",
    handle(async (_req, res) => {
      res.setHeader("Cache-Control", "no-cache");
      res.json(await read());
    }),
  );
  return router;
}
