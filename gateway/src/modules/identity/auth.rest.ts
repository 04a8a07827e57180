import { requireCaller } from "@gateway/auth/actor";
import { checkPermissions } from "@gateway/auth/checkPermissions";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import { loginSchema, registrationSchema } from "@schema/validation/user";
import { type Request, type Response, Router } from "express";
import { type IdentityDeps, presentOwner } from "./session";
import { checkSession, register, signIn, signOut } from "./withSession";

/**
 * REST shims of spec §7 for the session: GET /user, POST /login, /logout, /register,
 * GET /session-check and GET /auth/check-permissions.
 */
export function authRouter(deps: IdentityDeps): Router {
  const router = Router();
  const guard = csrfGuard(deps.config);

  router.get(
    "/user",
    handle(async (_req, res) => {
      res.setHeader("Cache-Control", "no-store");
      // the session's own account, also while it is limited to verification (needsVerification)
      res.json(presentOwner(res));
    }),
  );

  router.post(
    "/login",
    guard,
    handle(async (req, res) => {
      const input = parseInput(loginSchema, req.body);
      res.json(await signIn(deps, req, res, input));
    }),
  );

  router.post(
    "/logout",
    guard,
    handle(async (req, res) => {
      await signOut(deps, req, res);
      res.json({ message: "Logged out" });
    }),
  );

  router.post(
    "/register",
    guard,
    handle(async (req, res) => {
      const input = parseInput(registrationSchema, req.body);
      res.status(201).json(await register(deps, req, res, input));
    }),
  );

  router.get(
    "/session-check",
    handle(async (req: Request, res: Response) => {
      res.setHeader("Cache-Control", "no-store");
      res.json(await checkSession(req, res));
    }),
  );

  router.get(
    "/auth/check-permissions",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const user = requireCaller(res);
      const raw = req.query.permissions;
      const requested = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
        (p): p is string => typeof p === "string",
      );
      res.json(checkPermissions({ userType: user.userType, requested }));
    }),
  );

  return router;
}
