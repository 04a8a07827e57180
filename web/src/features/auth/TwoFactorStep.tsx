import { Button, Callout, Intent } from "@blueprintjs/core";
import { Key } from "@blueprintjs/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { recoveryCodeSchema, totpCodeSchema } from "@schema/validation/twoFactor";
import { completeSignIn, useRestMutation, useRestSend } from "@web/data/rest";
import { signWithPasskey } from "@web/features/two-factor/passkeyCeremony";
import { passkeyFailureMessage } from "@web/features/two-factor/passkeyMessages";
import { parseApiError, serverMessage } from "@web/lib/apiErrors";
import { isSignedInUser, type SignInAnswer, type TwoFactorChallenge } from "@web/lib/auth";
import { showToast } from "@web/lib/toast";
import { ServerProblem } from "@web/ui/ConfirmDialog";
import { TextField } from "@web/ui/TextField";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";

/** Props of the second step of a sign-in. */
export interface TwoFactorStepProps {
  challenge: TwoFactorChallenge;
  /** the step's answer: the signed-in user, or the enhanced level's question still to come */
  onAnswer(answer: SignInAnswer): void;
  onCancel(): void;
}

/** What POST /api/login/two-factor is sent. */
type SecondFactor =
  | { method: "totp" | "recovery_code"; code: string }
  | { method: "passkey"; response: unknown };

type CodeMethod = "totp" | "recovery_code";

const CODE_FORMS = {
  totp: z.object({ code: totpCodeSchema }),
  recovery_code: z.object({ code: recoveryCodeSchema }),
} as const;

const CODE_FIELDS: Record<CodeMethod, { label: string; hint: string; autoComplete: string }> = {
  totp: {
    label: "Code from your authenticator app",
    hint: "The 6 digits your app shows for this portal.",
    autoComplete: "one-time-code",
  },
  recovery_code: {
    label: "Recovery code",
    hint: "One of the codes you saved when you set up two-factor sign-in. Each works once.",
    autoComplete: "off",
  },
};

/** Whether a refusal of the second step says the pending sign-in is over (five minutes passed). */
function signInExpired(error: unknown): boolean {
  const parsed = parseApiError(error);
  return parsed?.status === 401 && /sign in again/i.test(parsed.body?.message ?? "");
}

/**
 * The second step of a sign-in whose password was accepted (issue 20): a code from the
 * authenticator app, "Use a passkey" when the account has one, and "Use a recovery code". Each is
 * sent to POST /api/login/two-factor; the pending sign-in lasts five minutes, after which the person
 * starts again from the login form.
 */
export function TwoFactorStep({ challenge, onAnswer, onCancel }: TwoFactorStepProps) {
  const has = (method: string) => challenge.methods.includes(method);
  const [method, setMethod] = useState<CodeMethod | "passkey">(
    has("totp") ? "totp" : has("passkey") ? "passkey" : "recovery_code",
  );
  // the server's refusal (a wrong code, a passkey not accepted, too many attempts)
  const [problem, setProblem] = useState<string | null>(null);
  const [usingPasskey, setUsingPasskey] = useState(false);
  const send = useRestSend();

  /** A refusal: the pending sign-in over (back to the login form), or what to show. */
  const refused = (error: unknown, fallback: string) => {
    if (!signInExpired(error)) return setProblem(serverMessage(error, fallback));
    showToast({
      title: "Login failed",
      description: serverMessage(error, "Your sign-in has expired. Please sign in again."),
      intent: "destructive",
    });
    onCancel();
  };

  const complete = useRestMutation<SecondFactor, SignInAnswer>({
    request: (body) => ({ method: "POST", path: "/api/login/two-factor", body }),
    onSuccess: (answer) => {
      if (isSignedInUser(answer)) completeSignIn(answer);
    },
    onError: (error, body) =>
      refused(error, body.method === "passkey" ? "The passkey was not accepted." : "Invalid two-factor code"),
  });

  const handleCode = async (code: string) => {
    if (method === "passkey") return;
    setProblem(null);
    const answer = await complete.run({ method, code });
    if (answer) onAnswer(answer);
  };

  const handlePasskey = async () => {
    // the step shows the passkey's way from now on (and its refusal, if any)
    setMethod("passkey");
    setProblem(null);
    setUsingPasskey(true);
    try {
      let options: unknown;
      try {
        options = await send({ method: "POST", path: "/api/login/two-factor/passkey-options", body: {} });
      } catch (error) {
        return refused(error, "The passkey could not be used.");
      }
      let response: unknown;
      try {
        response = await signWithPasskey(options);
      } catch (error) {
        return setProblem(passkeyFailureMessage(error, "use"));
      }
      const answer = await complete.run({ method: "passkey", response });
      if (answer) onAnswer(answer);
    } finally {
      setUsingPasskey(false);
    }
  };

  const choose = (next: CodeMethod | "passkey") => {
    setProblem(null);
    setMethod(next);
  };

  return (
    <div className="portal-two-factor-step">
      <Callout intent={Intent.PRIMARY} title="One more step">
        {method === "passkey"
          ? "Your account uses two-factor sign-in. Use your passkey to finish signing in."
          : method === "totp"
            ? "Your account uses two-factor sign-in. Enter the code from your authenticator app to finish signing in."
            : "Enter one of your recovery codes to finish signing in."}
      </Callout>
      {method === "passkey" ? null : (
        <CodeForm
          key={method}
          method={method}
          busy={complete.isPending && !usingPasskey}
          refusal={problem}
          onSubmit={handleCode}
        />
      )}
      <div className="portal-actions">
        {has("passkey") ? (
          <Button
            icon={<Key />}
            intent={method === "passkey" ? Intent.PRIMARY : Intent.NONE}
            text="Use a passkey"
            loading={usingPasskey}
            onClick={() => void handlePasskey()}
          />
        ) : null}
        {has("totp") && method !== "totp" ? (
          <Button variant="minimal" text="Use your authenticator app" onClick={() => choose("totp")} />
        ) : null}
        {has("recovery_code") && method !== "recovery_code" ? (
          <Button variant="minimal" text="Use a recovery code" onClick={() => choose("recovery_code")} />
        ) : null}
        <Button variant="minimal" text="Back to login" onClick={onCancel} />
      </div>
      {problem && method === "passkey" ? <ServerProblem message={problem} /> : null}
    </div>
  );
}

/** Props of {@link CodeForm}. */
interface CodeFormProps {
  method: CodeMethod;
  busy: boolean;
  /** the server's refusal of the last code, shown at the field */
  refusal: string | null;
  onSubmit(code: string): Promise<void>;
}

/** The code of the second step (an authenticator's or a recovery code), checked with the shared schema. */
function CodeForm({ method, busy, refusal, onSubmit }: CodeFormProps) {
  const field = CODE_FIELDS[method];
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ code: string }>({ resolver: zodResolver(CODE_FORMS[method]), defaultValues: { code: "" } });
  const handleVerify = handleSubmit(({ code }) => onSubmit(code));
  return (
    <form
      onSubmit={handleVerify}
      noValidate
      aria-label="Two-factor sign-in"
      className="portal-page-after-callout"
    >
      <TextField
        id={`two-factor-${method}`}
        label={field.label}
        autoComplete={field.autoComplete}
        registration={register("code")}
        error={errors.code?.message ?? refusal ?? undefined}
        hint={field.hint}
        autoFocus
        inputMode={method === "totp" ? "numeric" : undefined}
      />
      <div className="portal-actions">
        <Button type="submit" intent={Intent.PRIMARY} text="Verify" loading={busy} />
      </div>
    </form>
  );
}
