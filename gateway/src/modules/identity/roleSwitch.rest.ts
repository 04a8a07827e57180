import { csrfGuard } from "@gateway/http/csrf";
import { apiNotFound } from "@gateway/http/errorHandler";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import { roleSwitchSchema } from "@schema/validation/user";
import { type NextFunction, type Request, type Response, Router } from "express";
import { roleSwitcherExists } from "./roleSwitchRule";
import type { IdentityDeps } from "./session";
import { switchToDemoRole } from "./withSession";

export const ROLE_SWITCH_PATH = "/dev/roles/switch";

/**
 * The role switcher's sign-in (issue 21): POST /dev/roles/switch `{ userId }` signs the session in as
 * that demo user and answers the user, as POST /login does. In production it answers as a path
 * nothing answers (404 "Not found"), whoever asks and whatever the body.
 */
export function roleSwitchRouter(deps: IdentityDeps): Router {
  const router = Router();
  const absentInProduction = (req: Request, res: Response, next: NextFunction) => {
    if (roleSwitcherExists(deps.config)) return next();
    apiNotFound(req, res);
  };
  router.post(
    ROLE_SWITCH_PATH,
    absentInProduction,
    csrfGuard(deps.config),
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const { userId } = parseInput(roleSwitchSchema, req.body);
      res.json(await switchToDemoRole(deps, req, res, userId));
    }),
  );
  return router;
}
