import { requireCaller, requirePermitted } from "@gateway/auth/actor";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import { apiAckSchema } from "@schema/esrt/contract";
import { uniqueIdSchema } from "@schema/validation/user";
import { type ApiKeyView, acknowledge, authenticateApiKey } from "@services/esrt-sync";
import { AppError } from "@services/shared/errors";
import { findUserByUniqueId, lookUpUser } from "@services/user";
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
import { z } from "zod";
import type { IdentityDeps } from "../identity/session";

// The two routes the Pro app may call with an API key (issue 10, Machine access for the Pro app):
// GET /api/users/by-uniqueid/{uniqueId} and POST /api/esrt/ack. Each has two routes in a row: the
// first serves a request carrying `Authorization: Bearer <key>` (a machine caller: no session is
// read or made), the second, reached with next("route") when there is no Bearer header, the
// signed-in session. A Bearer header anywhere else is refused 401 by refuseApiKeysElsewhere, so a
// key opens these two routes and nothing else.

/** GET /users/by-uniqueid/:uniqueId's path parameter. */
export const uniqueIdParam = z.object({ uniqueId: uniqueIdSchema });

export const API_KEY_REFUSED_MESSAGE = "Invalid or revoked API key";
export const API_KEY_ELSEWHERE_MESSAGE =
  "API keys are accepted only by GET /api/users/by-uniqueid/{uniqueId} and POST /api/esrt/ack";

/** The Bearer token of the request, or undefined when it has no Authorization: Bearer header. */
function bearerOf(req: Request): string | undefined {
  const header = req.get("authorization");
  if (header === undefined) return undefined;
  const match = /^bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

/** The routes (method and path under the app) where a Bearer API key is accepted. */
function isApiKeyRoute(req: Request): boolean {
  const path = req.originalUrl.split("?")[0] ?? "";
  return (
    ((req.method === "GET" || req.method === "HEAD") && /^\/api\/users\/by-uniqueid\/[^/]+\/?$/.test(path)) ||
    (req.method === "POST" && /^\/api\/esrt\/ack\/?$/.test(path))
  );
}

/**
 * Refuses 401 a request with `Authorization: Bearer ...` on any route but the two the Pro app's
 * API keys open (see the file's head): mounted before /api, the uploads and /graphql. Other
 * Authorization schemes (a proxy's Basic) pass untouched.
 */
export function refuseApiKeysElsewhere(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (bearerOf(req) === undefined || isApiKeyRoute(req)) return next();
    res.setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
    res.status(401).json({ message: API_KEY_ELSEWHERE_MESSAGE, code: "UNAUTHENTICATED" });
  };
}

/** The API key the request authenticated with (set by the key routes' first handler). */
function apiKeyOf(res: Response): ApiKeyView {
  const key: unknown = res.locals.apiKey;
  if (!key || typeof key !== "object") throw new AppError("UNAUTHENTICATED", API_KEY_REFUSED_MESSAGE);
  return key as ApiKeyView;
}

export interface EsrtRestDeps {
  identity: IdentityDeps;
  /** the session and signed-in user middleware the /api routes use (run only without a key) */
  session: RequestHandler[];
}

/**
 * The Pro app's REST routes: the lookup by unique id (the owner, manage:users, manage:esrt_sync or
 * an API key) and the acknowledgement of a user's version (manage:esrt_sync or an API key).
 * Mount it under /api before the session middleware.
 */
export function esrtRouter(deps: EsrtRestDeps): Router {
  const router = Router();
  const { db } = deps.identity;
  const guard = csrfGuard(deps.identity.config);

  /** With a Bearer header: authenticates the key (401 when unknown or revoked); without: the next route. */
  const withApiKey: RequestHandler = (req, res, next) => {
    const key = bearerOf(req);
    if (key === undefined) return next("route");
    authenticateApiKey(db, key).then(
      (found) => {
        if (!found) {
          res.setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
          next(new AppError("UNAUTHENTICATED", API_KEY_REFUSED_MESSAGE));
          return;
        }
        res.locals.apiKey = found;
        next();
      },
      (err: unknown) => next(err),
    );
  };

  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  };

  router.get(
    "/users/by-uniqueid/:uniqueId",
    noStore,
    withApiKey,
    handle(async (req, res) => {
      apiKeyOf(res);
      const { uniqueId } = parseInput(uniqueIdParam, req.params);
      res.json(await findUserByUniqueId({ db, uniqueId }));
    }),
  );
  router.get(
    "/users/by-uniqueid/:uniqueId",
    ...deps.session,
    handle(async (req, res) => {
      const actor = requireCaller(res);
      const { uniqueId } = parseInput(uniqueIdParam, req.params);
      res.json(await lookUpUser({ db, actor, uniqueId }));
    }),
  );

  router.post(
    "/esrt/ack",
    noStore,
    guard,
    withApiKey,
    handle(async (req, res) => {
      apiKeyOf(res);
      const { uniqueId, version } = parseInput(apiAckSchema, req.body);
      res.json(await acknowledge(db, { uniqueId, version, via: "api" }));
    }),
  );
  router.post(
    "/esrt/ack",
    ...deps.session,
    handle(async (req, res) => {
      requirePermitted(res, "manage:esrt_sync", "You do not have permission to acknowledge syncs");
      const { uniqueId, version } = parseInput(apiAckSchema, req.body);
      res.json(await acknowledge(db, { uniqueId, version, via: "api" }));
    }),
  );

  return router;
}
