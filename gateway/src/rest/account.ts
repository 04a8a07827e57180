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
import { AppError } from "@services/shared/errors";
import { Router } from "express";
import { z } from "zod";
import {
  answerSecurityQuestions,
  askPasswordReset,
  askVerificationEmail,
  changeOwnPassword,
  confirmEmail,
  confirmPasswordReset,
  readSecurityQuestions,
  saveNotes,
  saveSecurityQuestions,
} from "../auth/flows";
import { type IdentityDeps, requireUser } from "../auth/identity";
import { csrfGuard } from "./guards";
import { handle, parse } from "./handle";

const userIdParam = z.object({ userId: id("userId must be a user's id") });
const resendVerificationSchema = z.object({ email: emailSchema.optional() });

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
      const { email } = parse(resetRequestSchema, req.body);
      res.json(await askPasswordReset(deps, req, email));
    }),
  );

  router.post(
    "/reset-password/confirm",
    guard,
    handle(async (req, res) => {
      res.json(await confirmPasswordReset(deps, req, parse(resetConfirmSchema, req.body)));
    }),
  );

  router.post(
    "/verify-email/resend",
    guard,
    handle(async (req, res) => {
      const { email } = parse(resendVerificationSchema, req.body ?? {});
      res.json(await askVerificationEmail(deps, req, res, email));
    }),
  );

  router.post(
    "/verify-email",
    guard,
    handle(async (req, res) => {
      const { token } = parse(verifyEmailSchema, req.body);
      res.json(await confirmEmail(deps, req, res, token));
    }),
  );

  router.post(
    "/security-questions",
    guard,
    handle(async (req, res) => {
      requireUser(res);
      res.json(await saveSecurityQuestions(deps, req, res, parse(securityQuestionsSchema, req.body)));
    }),
  );

  router.get(
    "/security-questions/:userId",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const { userId } = parse(userIdParam, req.params);
      res.json(await readSecurityQuestions(deps, req, res, userId));
    }),
  );

  router.post(
    "/verify-security-answers",
    guard,
    handle(async (req, res) => {
      res.json(await answerSecurityQuestions(deps, req, res, parse(securityAnswersSchema, req.body)));
    }),
  );

  router.post(
    "/user/notes",
    guard,
    handle(async (req, res) => {
      requireUser(res);
      const result = notesSchema.safeParse(req.body ?? {});
      if (!result.success) {
        const message = result.error.issues[0]?.message ?? "Invalid notes";
        throw new AppError("VALIDATION_FAILED", message, { details: { error: message } });
      }
      res.json(await saveNotes(deps, res, result.data.notes));
    }),
  );

  router.post(
    "/user/password",
    guard,
    handle(async (req, res) => {
      requireUser(res);
      res.json(await changeOwnPassword(deps, req, res, parse(changePasswordSchema, req.body)));
    }),
  );

  return router;
}
