import { useMutation } from "@apollo/client/react";
import { Callout, Radio, RadioGroup } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { identityProofSchema, recoveryCodeSchema, totpCodeSchema } from "@schema/validation/twoFactor";
import {
  ConfirmIdentityDocument,
  ConfirmIdentityPasskeyOptionsDocument,
  type IdentityProofMethod,
  TwoFactorStatusDocument,
  type TwoFactorStatusFieldsFragment,
} from "@web/generated/graphql";
import { FormDialog } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { TextField } from "@web/ui/TextField";
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { z } from "zod";
import { signWithPasskey } from "./passkeyCeremony";
import {
  asksForProof,
  passkeyFailureMessage,
  proofIsFresh,
  type TypedAnswer,
  UNREACHABLE_MESSAGE,
} from "./twoFactor";

/** A change that needs a fresh proof of identity, as the page and its dialogs run it. */
export interface IdentityProof {
  /**
   * Resolves true once the session holds a fresh proof of identity, asking the person for one
   * ("Confirm it's you") when it does not, or always with `force`; false when they cancel.
   */
  ensure(force?: boolean): Promise<boolean>;
  /**
   * Sends a change after making sure of a fresh proof; when the server refuses it for want of one
   * (the proof ran out meanwhile) asks again and sends it once more. Resolves to the answer, or null
   * when the person cancelled.
   */
  run<A extends TypedAnswer>(send: () => Promise<A>): Promise<A | null>;
}

/**
 * The proof of identity of the two-factor page: {@link IdentityProof} for its changes, and the
 * "Confirm it's you" dialog to render (null while nobody is asked).
 */
export function useIdentityProof(status: TwoFactorStatusFieldsFragment | undefined): {
  proof: IdentityProof;
  dialog: ReactNode;
} {
  const statusUntil = status?.confirmedUntil ?? null;
  const until = useRef<string | null>(statusUntil);
  // the server's word on each load of the status; a confirmation below moves it on at once
  useEffect(() => {
    until.current = statusUntil;
  }, [statusUntil]);
  const waiting = useRef<((ok: boolean) => void)[]>([]);
  const [asking, setAsking] = useState(false);

  const settle = useCallback((ok: boolean) => {
    const resolvers = waiting.current;
    waiting.current = [];
    setAsking(false);
    for (const resolve of resolvers) resolve(ok);
  }, []);

  const proof = useMemo<IdentityProof>(() => {
    const ensure = (force = false): Promise<boolean> => {
      if (!force && proofIsFresh(until.current)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        waiting.current.push(resolve);
        setAsking(true);
      });
    };
    return {
      ensure,
      async run(send) {
        if (!(await ensure())) return null;
        const answer = await send();
        if (!asksForProof(answer)) return answer;
        until.current = null;
        if (!(await ensure(true))) return null;
        return send();
      },
    };
  }, []);

  const dialog =
    asking && status ? (
      <ConfirmIdentityDialog
        status={status}
        onConfirmed={(confirmedUntil) => {
          until.current = confirmedUntil;
          settle(true);
        }}
        onCancel={() => settle(false)}
      />
    ) : null;
  return { proof, dialog };
}

/** Props of {@link ConfirmIdentityDialog}. */
export interface ConfirmIdentityDialogProps {
  /** what the person holds: the methods offered besides the password */
  status: TwoFactorStatusFieldsFragment;
  onConfirmed(confirmedUntil: string): void;
  onCancel(): void;
}

const SCHEMAS: Record<IdentityProofMethod, z.ZodType<{ value: string }, { value: string }>> = {
  password: z.object({ value: identityProofSchema.options[0].shape.password }),
  totp: z.object({ value: totpCodeSchema }),
  recovery_code: z.object({ value: recoveryCodeSchema }),
  passkey: z.object({ value: z.string() }),
};

const FIELDS: Record<
  Exclude<IdentityProofMethod, "passkey">,
  { label: string; type: "password" | "text"; autoComplete: string; inputMode?: "numeric" }
> = {
  password: { label: "Your password", type: "password", autoComplete: "current-password" },
  totp: {
    label: "Code from your authenticator app",
    type: "text",
    autoComplete: "one-time-code",
    inputMode: "numeric",
  },
  recovery_code: { label: "Recovery code", type: "text", autoComplete: "off" },
};

/**
 * "Confirm it's you": the password (or, when the person holds them, an authenticator code, a
 * recovery code or a passkey) before a change to two-factor sign-in; good for five minutes.
 */
export function ConfirmIdentityDialog({ status, onConfirmed, onCancel }: ConfirmIdentityDialogProps) {
  useReturnFocus();
  const fieldId = useId();
  const [method, setMethod] = useState<IdentityProofMethod>("password");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the change this proof was asked for is sent once the status holds the proof: sent beside the
  // status's refetch, the change's own refetch of the status joined that older request in flight
  // (Apollo Client deduplicates identical queries) and the page kept the status from before the change
  const [confirm] = useMutation(ConfirmIdentityDocument, {
    refetchQueries: [TwoFactorStatusDocument],
    awaitRefetchQueries: true,
  });
  const [passkeyOptions] = useMutation(ConfirmIdentityPasskeyOptionsDocument);
  const methodRef = useRef(method);
  methodRef.current = method;
  const resolver = useCallback<Resolver<{ value: string }>>(
    (values, context, options) => zodResolver(SCHEMAS[methodRef.current])(values, context, options),
    [],
  );
  const form = useForm<{ value: string }>({ resolver, defaultValues: { value: "" } });

  const offered: { value: IdentityProofMethod; label: string }[] = [
    { value: "password", label: "Password" },
    ...(status.authenticatorAddedAt
      ? [{ value: "totp" as const, label: "Code from your authenticator app" }]
      : []),
    ...(status.passkeys.length > 0 ? [{ value: "passkey" as const, label: "A passkey" }] : []),
    ...(status.enabled && status.recoveryCodesLeft > 0
      ? [{ value: "recovery_code" as const, label: "A recovery code" }]
      : []),
  ];

  const handleMethod = (next: IdentityProofMethod) => {
    setMethod(next);
    setProblem(null);
    form.reset({ value: "" });
  };

  const send = async (variables: {
    method: IdentityProofMethod;
    password?: string;
    code?: string;
    response?: unknown;
  }) => {
    const answer = (await confirm({ variables })).data?.confirmIdentity;
    if (answer?.__typename === "MutationConfirmIdentitySuccess") return onConfirmed(answer.data);
    setProblem(answer?.__typename === "AppError" ? answer.message : "Your identity could not be confirmed.");
  };

  const submit = form.handleSubmit(async ({ value }) => {
    setBusy(true);
    setProblem(null);
    try {
      if (method === "password") await send({ method, password: value });
      else if (method === "totp" || method === "recovery_code") await send({ method, code: value });
      else {
        const options = (await passkeyOptions()).data?.confirmIdentityPasskeyOptions;
        if (options?.__typename !== "MutationConfirmIdentityPasskeyOptionsSuccess") {
          setProblem(options?.__typename === "AppError" ? options.message : "The passkey could not be used.");
          return;
        }
        let response: unknown;
        try {
          response = await signWithPasskey(options.data);
        } catch (error) {
          setProblem(passkeyFailureMessage(error, "use"));
          return;
        }
        await send({ method, response });
      }
    } catch {
      setProblem(UNREACHABLE_MESSAGE);
    } finally {
      setBusy(false);
    }
  });

  const field = method === "passkey" ? null : FIELDS[method];

  return (
    <FormDialog
      label="Confirm it's you"
      submitText={method === "passkey" ? "Use a passkey" : "Confirm"}
      backText="Cancel"
      busy={busy}
      problem={problem}
      onSubmit={(event) => void submit(event)}
      onClose={onCancel}
    >
      <p>
        Changes to two-factor sign-in need a fresh proof that it is you. You will not be asked again for the
        next five minutes.
      </p>
      {offered.length > 1 ? (
        <RadioGroup
          label="Confirm with"
          selectedValue={method}
          onChange={(event) => handleMethod(event.currentTarget.value as IdentityProofMethod)}
        >
          {offered.map((option) => (
            <Radio key={option.value} value={option.value} label={option.label} />
          ))}
        </RadioGroup>
      ) : null}
      {field ? (
        <TextField
          key={method}
          id={fieldId}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          inputMode={field.inputMode}
          autoFocus
          registration={form.register("value")}
          error={form.formState.errors.value?.message}
        />
      ) : (
        <Callout compact>Your browser asks for one of your passkeys.</Callout>
      )}
    </FormDialog>
  );
}
