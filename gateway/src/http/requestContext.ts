import { currentRequest, type RequestContext, runInRequest } from "@services/shared/requestContext";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { clientIp } from "../modules/identity/session";

/** The context a request runs in, made once per request by the first {@link requestContext}. */
const contexts = new WeakMap<Request, RequestContext>();

/**
 * Runs the rest of the request inside its request context (services/shared/requestContext): its id
 * (set by ./requestLog) and the client's address, read by the audit log. Mounted again after the
 * body parser and the session: their stream and store callbacks may not keep the async context. A
 * mount that finds the request's context still in force (a GET without a body, a session read whose
 * callback kept it) goes straight on instead of entering it a second time.
 */
export function requestContext(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    let context = contexts.get(req);
    if (context !== undefined && currentRequest() === context) {
      next();
      return;
    }
    if (context === undefined) {
      context = { requestId: String(req.id), ip: clientIp(req) };
      contexts.set(req, context);
    }
    runInRequest(context, next);
  };
}
