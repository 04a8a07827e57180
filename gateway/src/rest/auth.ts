import { loginSchema, registrationSchema } from "@schema/validation/user";
import { type Request, type Response, Router } from "express";
import { checkPermissions } from "../auth/checkPermissions";
import { checkSession, register, signIn, signOut } from "../auth/flows";
import { type IdentityDeps, present, requireUser } from "../auth/identity";
import { csrfGuard } from "./guards";
import { handle, parse } from "./handle";

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
      res.json(present(requireUser(res)));
    }),
  );

  router.post(
    "/login",
    guard,
    handle(async (req, res) => {
      const input = parse(loginSchema, req.body);
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
      const input = parse(registrationSchema, req.body);
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
      const user = requireUser(res);
      const raw = req.query.permissions;
      const requested = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
        (p): p is string => typeof p === "string",
      );
      res.json(checkPermissions({ userType: user.userType, requested }));
    }),
  );

  return router;
}
