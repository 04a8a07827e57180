import { requireCaller } from "@gateway/auth/actor";
import { checkPermissions } from "@gateway/auth/checkPermissions";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import { passkeySignInSchema, secondFactorSchema } from "@schema/validation/twoFactor";
import { loginSchema, registrationSchema } from "@schema/validation/user";
import { type Request, type Response, Router } from "express";
import { type IdentityDeps, presentOwner } from "./session";
import {
  completeTwoFactorSignIn,
  passkeySignIn,
  passkeySignInOptions,
  secondFactorPasskeyOptions,
} from "./twoFactorSteps";
import { checkSession, register, signIn, signOut } from "./withSession";

/**
 * REST shims of spec §7 for the session: GET /user, POST /login, /logout, /register,
 * GET /session-check and GET /auth/check-permissions; and two-factor sign-in's steps (issue 20):
 * POST /login/two-factor (with /login/two-factor/passkey-options) and POST /login/passkey (with
 * /login/passkey/options).
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

  // two-factor sign-in (issue 20): the pending sign-in's second step, and a passkey alone; each
  // answers what its step leads to (WebAuthn options are never cached)
  const twoFactorSteps: Record<string, (req: Request, res: Response) => Promise<unknown>> = {
    "/login/two-factor": (req, res) =>
      completeTwoFactorSignIn(deps, req, res, parseInput(secondFactorSchema, req.body)),
    "/login/two-factor/passkey-options": (req) => secondFactorPasskeyOptions(deps, req),
    "/login/passkey/options": (req) => passkeySignInOptions(deps, req),
    "/login/passkey": (req, res) =>
      passkeySignIn(deps, req, res, parseInput(passkeySignInSchema, req.body).response),
  };
  for (const [path, step] of Object.entries(twoFactorSteps)) {
    router.post(
      path,
      guard,
      handle(async (req, res) => {
        res.setHeader("Cache-Control", "no-store");
        res.json(await step(req, res));
      }),
    );
  }

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
