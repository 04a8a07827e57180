import { requireCaller } from "@gateway/auth/actor";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parseInput, parseSingleMessage } from "@gateway/input";
import { id } from "@schema/validation/primitives";
import {
  changePasswordSchema,
  emailSchema,
  notesSchema,
  resetConfirmSchema,
  resetRequestSchema,
  securityAnswersSchema,
  securityQuestionsSchema,
  verifyEmailSchema,
} from "@schema/validation/user";
import {
  askPasswordReset,
  askVerificationEmail,
  saveOwnSecurityQuestions,
  updateNotes,
} from "@services/user";
import { Router } from "express";
import { z } from "zod";
import { notesSaved } from "./present";
import { clientIp, type IdentityDeps, sessionOwner } from "./session";
import {
  answerSecurityQuestions,
  changeOwnPassword,
  confirmEmail,
  confirmPasswordReset,
  readSecurityQuestions,
} from "./withSession";

/** GET /security-questions/:userId's path parameter. */
export const userIdParam = z.object({ userId: id("userId must be a user's id") });
/** POST /verify-email/resend: an address, or none for the session's own. */
export const resendVerificationSchema = z.object({ email: emailSchema.optional() });

/**
 * REST shims of spec §7 for the account: password reset, email verification, security questions and
 * answers and console notes. The console's lookup by unique id, which the Pro app's API keys may
 * also call, is in ./esrt.
 */
export function accountRouter(deps: IdentityDeps): Router {
  const router = Router();
  const guard = csrfGuard(deps.config);

  router.post(
    "/reset-password",
    guard,
    handle(async (req, res) => {
      const { email } = parseInput(resetRequestSchema, req.body);
      res.json(await askPasswordReset({ db: deps.db, limiter: deps.limiter, email, ip: clientIp(req) }));
    }),
  );

  router.post(
    "/reset-password/confirm",
    guard,
    handle(async (req, res) => {
      res.json(await confirmPasswordReset(deps, req, parseInput(resetConfirmSchema, req.body)));
    }),
  );

  router.post(
    "/verify-email/resend",
    guard,
    handle(async (req, res) => {
      const { email } = parseInput(resendVerificationSchema, req.body ?? {});
      // a session limited to verification asks for its own address
      const address = email ?? sessionOwner(res)?.email;
      res.json(
        await askVerificationEmail({ db: deps.db, limiter: deps.limiter, email: address, ip: clientIp(req) }),
      );
    }),
  );

  router.post(
    "/verify-email",
    guard,
    handle(async (req, res) => {
      const { token } = parseInput(verifyEmailSchema, req.body);
      res.json(await confirmEmail(deps, req, res, token));
    }),
  );

  router.post(
    "/security-questions",
    guard,
    handle(async (req, res) => {
      const actor = requireCaller(res);
      const input = parseInput(securityQuestionsSchema, req.body);
      res.json(await saveOwnSecurityQuestions({ db: deps.db, actor, ...input, ip: clientIp(req) }));
    }),
  );

  router.get(
    "/security-questions/:userId",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const { userId } = parseInput(userIdParam, req.params);
      res.json(await readSecurityQuestions(deps, req, res, userId));
    }),
  );

  router.post(
    "/verify-security-answers",
    guard,
    handle(async (req, res) => {
      res.json(await answerSecurityQuestions(deps, req, res, parseInput(securityAnswersSchema, req.body)));
    }),
  );

  router.post(
    "/user/notes",
    guard,
    handle(async (req, res) => {
      const actor = requireCaller(res);
      const { notes } = parseSingleMessage(notesSchema, req.body, "Invalid notes");
      res.json(notesSaved(await updateNotes({ db: deps.db, userId: actor.id, notes })));
    }),
  );

  router.post(
    "/user/password",
    guard,
    handle(async (req, res) => {
      requireCaller(res);
      res.json(await changeOwnPassword(deps, req, res, parseInput(changePasswordSchema, req.body)));
    }),
  );

  return router;
}
