import { logger } from "@services/shared/logger";
import type { ErrorRequestHandler, Request, Response } from "express";
import { limitRefusal, sessionLimit } from "../auth/actor";
import { normalizeError, toHttpError } from "../errors";

/**
 * Last Express error handler: answers JSON { message, code } with the status of the error's code
 * (malformed JSON 400, body too large 413, store unavailable 503, anything unknown 500 "Internal
 * server error") and logs it with the request id. A server error's body also carries that
 * `requestId`, for the client to quote; its detail stays in the log, in every mode. Never sends a
 * stack trace. A session limited to verification (or to enrolling a second factor) that meets a
 * sign-in refusal gets 403 with needsVerification (needsTwoFactorEnrolment) instead of 401.
 */
export function errorHandler(): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next) => {
    // a limited session is told why, whatever asked for a signed-in user (issue 20)
    const limit = sessionLimit(res);
    const limited = limit !== null && normalizeError(err).code === "UNAUTHENTICATED";
    const { status, body } = toHttpError(limited ? limitRefusal(limit) : err);
    const log = req.log ?? logger("http");
    if (status >= 500) log.error({ err, requestId: req.id }, "request failed");
    else log.debug({ err, requestId: req.id }, "request rejected");
    if (res.headersSent) {
      next(err);
      return;
    }
    if (status === 503) res.setHeader("Retry-After", "5");
    const requestId = req.id === undefined ? undefined : String(req.id);
    res.status(status).json(status >= 500 && requestId ? { ...body, requestId } : body);
  };
}

/** JSON 404 for an /api path no route answered. */
export function apiNotFound(_req: Request, res: Response): void {
  res.status(404).json({ message: "Not found" });
}
