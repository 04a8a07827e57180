import { useMutation } from "@apollo/client/react";
import { Button, Callout, FormGroup, InputGroup, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { Clipboard } from "@blueprintjs/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { confirmAuthenticatorSchema } from "@schema/validation/twoFactor";
import { ConfirmAuthenticatorDocument, TwoFactorStatusDocument } from "@web/generated/graphql";
import { makeQrDataUrl } from "@web/lib/qr";
import { FormDialog } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { copyToClipboard } from "@web/ui/OneTimeSecret";
import { TextField } from "@web/ui/TextField";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import type { IdentityProof } from "./IdentityProof";
import { UNREACHABLE_MESSAGE } from "./twoFactor";

/** A new authenticator app's secret, as startAuthenticator gives it. */
export interface AuthenticatorSetup {
  secret: string;
  otpauthUri: string;
}

/** Props of {@link AuthenticatorDialog}. */
export interface AuthenticatorDialogProps {
  setup: AuthenticatorSetup;
  proof: IdentityProof;
  /** the app is set up; the recovery codes when these are the account's first */
  onDone(recoveryCodes: readonly string[] | null): void;
  onClose(): void;
}

type CodeInput = z.input<typeof confirmAuthenticatorSchema>;
type CodeValues = z.output<typeof confirmAuthenticatorSchema>;

const QR_SIZE = 176;

/**
 * Setting up an authenticator app: the QR code of its otpauth:// address (and the setup key as
 * text, for an app on this device), then the first code it shows, which makes it count.
 */
export function AuthenticatorDialog({ setup, proof, onDone, onClose }: AuthenticatorDialogProps) {
  useReturnFocus();
  const keyId = useId();
  const codeId = useId();
  const keyInput = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, state] = useMutation(ConfirmAuthenticatorDocument, {
    refetchQueries: [TwoFactorStatusDocument],
  });
  const form = useForm<CodeInput, unknown, CodeValues>({
    resolver: zodResolver(confirmAuthenticatorSchema),
    defaultValues: { code: "" },
  });

  const submit = form.handleSubmit(async ({ code }) => {
    setProblem(null);
    try {
      const answer = await proof.run(
        async () => (await confirm({ variables: { code } })).data?.confirmAuthenticator,
      );
      if (answer === null) return;
      if (answer?.__typename === "MutationConfirmAuthenticatorSuccess") {
        onDone(answer.data.recoveryCodes ?? null);
        return;
      }
      const message = answer?.__typename === "AppError" ? answer.message : "The code could not be checked.";
      if (answer?.__typename === "AppError" && answer.code === "VALIDATION_FAILED") {
        form.setError("code", { message }, { shouldFocus: true });
      } else setProblem(message);
    } catch {
      setProblem(UNREACHABLE_MESSAGE);
    }
  });

  return (
    <FormDialog
      label="Set up an authenticator app"
      submitText="Turn on"
      backText="Cancel"
      busy={state.loading}
      problem={problem}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      <ol className="two-factor-steps">
        <li>
          <p>
            Scan this QR code with an authenticator app on your phone (such as Google Authenticator, Microsoft
            Authenticator or 1Password).
          </p>
          <AuthenticatorQr uri={setup.otpauthUri} />
          <FormGroup
            label="Can't scan it? Enter this setup key in the app instead"
            labelFor={keyId}
            className="two-factor-key"
          >
            <InputGroup
              id={keyId}
              inputRef={keyInput}
              readOnly
              value={setup.secret}
              className="two-factor-key-value"
              onFocus={(e) => e.currentTarget.select()}
              rightElement={
                <Button
                  variant="minimal"
                  icon={<Clipboard />}
                  aria-label="Copy the setup key"
                  title="Copy"
                  onClick={() => void copyToClipboard(setup.secret, keyInput.current, "The setup key")}
                />
              }
            />
          </FormGroup>
        </li>
        <li>
          <TextField
            id={codeId}
            label="Enter the 6-digit code the app shows"
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
            registration={form.register("code")}
            error={form.formState.errors.code?.message}
            hint="It changes every 30 seconds."
          />
        </li>
      </ol>
    </FormDialog>
  );
}

/** The QR code of an otpauth:// address; a failure to draw it points to the setup key. */
function AuthenticatorQr({ uri }: { uri: string }) {
  const [drawn, setDrawn] = useState<string | "failed" | null>(null);
  useEffect(() => {
    let current = true;
    makeQrDataUrl(uri, { size: QR_SIZE }).then(
      (dataUrl) => {
        if (current) setDrawn(dataUrl);
      },
      () => {
        if (current) setDrawn("failed");
      },
    );
    return () => {
      current = false;
    };
  }, [uri]);
  if (drawn === "failed") {
    return (
      <Callout intent={Intent.WARNING} compact>
        The QR code could not be drawn: enter the setup key below in your app.
      </Callout>
    );
  }
  return (
    <div className="two-factor-qr" style={{ width: QR_SIZE, height: QR_SIZE }}>
      {drawn ? (
        <img src={drawn} width={QR_SIZE} height={QR_SIZE} alt="QR code to scan with your authenticator app" />
      ) : (
        <Spinner size={SpinnerSize.SMALL} aria-label="Drawing the QR code" />
      )}
    </div>
  );
}
