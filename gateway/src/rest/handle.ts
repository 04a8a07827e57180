import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { AppError } from "../../../services/shared/errors";
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
 * Parses a request body (or params) with one of the shared zod schemas.
 * @throws AppError VALIDATION_FAILED: message the first issue's, details.errors field → messages.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "_";
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new AppError("VALIDATION_FAILED", result.error.issues[0]?.message ?? "Invalid input", {
    details: { errors },
  });
}
