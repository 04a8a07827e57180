import { runInRequest } from "@services/shared/requestContext";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { clientIp } from "../modules/identity/session";

/**
 * Runs the rest of the request inside its request context (services/shared/requestContext): its id
 * (set by ./requestLog) and the client's address, read by the audit log. Mounted again after the
 * body parser and the session: their stream and store callbacks do not keep the async context.
 */
export function requestContext(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    runInRequest({ requestId: String(req.id), ip: clientIp(req) }, next);
  };
}
