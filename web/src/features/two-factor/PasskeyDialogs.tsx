import { useMutation } from "@apollo/client/react";
import { Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { renamePasskeySchema } from "@schema/validation/twoFactor";
import {
  AddPasskeyDocument,
  type PasskeyFieldsFragment,
  PasskeyRegistrationOptionsDocument,
  RenamePasskeyDocument,
  TwoFactorStatusDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { FormDialog } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { TextField } from "@web/ui/TextField";
import { useId, useState } from "react";
import { type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import type { IdentityProof } from "./IdentityProof";
import { createPasskey } from "./passkeyCeremony";
import { passkeyFailureMessage, suggestedPasskeyName, UNREACHABLE_MESSAGE } from "./twoFactor";

type NameInput = z.input<typeof renamePasskeySchema>;
type NameValues = z.output<typeof renamePasskeySchema>;

/** The passkey's name field, checked with the shared schema. */
function NameField({ form }: { form: UseFormReturn<NameInput, unknown, NameValues> }) {
  const id = useId();
  return (
    <TextField
      id={id}
      label="Name"
      autoComplete="off"
      autoFocus
      registration={form.register("name")}
      error={form.formState.errors.name?.message}
      hint="To tell your passkeys apart, such as “Work laptop” or “Phone”."
    />
  );
}

/** Props of {@link AddPasskeyDialog}. */
export interface AddPasskeyDialogProps {
  proof: IdentityProof;
  /** the passkey is added; the recovery codes when these are the account's first */
  onDone(name: string, recoveryCodes: readonly string[] | null): void;
  onClose(): void;
}

/**
 * Adding a passkey: its name, then the browser's own prompt (a security key, the phone, the
 * device's lock), whose answer the server verifies and keeps.
 */
export function AddPasskeyDialog({ proof, onDone, onClose }: AddPasskeyDialogProps) {
  useReturnFocus();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [options] = useMutation(PasskeyRegistrationOptionsDocument);
  const [add] = useMutation(AddPasskeyDocument, { refetchQueries: [TwoFactorStatusDocument] });
  const platform =
    typeof navigator === "undefined"
      ? undefined
      : ((navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ??
        navigator.platform);
  const form = useForm<NameInput, unknown, NameValues>({
    resolver: zodResolver(renamePasskeySchema),
    defaultValues: { name: suggestedPasskeyName(platform) },
  });

  const submit = form.handleSubmit(async ({ name }) => {
    setProblem(null);
    setBusy(true);
    try {
      const asked = await proof.run(async () => (await options()).data?.passkeyRegistrationOptions);
      if (asked === null) return;
      if (asked?.__typename !== "MutationPasskeyRegistrationOptionsSuccess") {
        setProblem(asked?.__typename === "AppError" ? asked.message : "The passkey could not be added.");
        return;
      }
      let response: unknown;
      try {
        response = await createPasskey(asked.data);
      } catch (error) {
        setProblem(passkeyFailureMessage(error, "add"));
        return;
      }
      // a proof that ran out meanwhile is asked for again; the server keeps the challenge until then
      const answer = await proof.run(
        async () => (await add({ variables: { name, response } })).data?.addPasskey,
      );
      if (answer === null) return;
      if (answer?.__typename === "MutationAddPasskeySuccess") {
        onDone(name, answer.data.recoveryCodes ?? null);
        return;
      }
      setProblem(answer?.__typename === "AppError" ? answer.message : "The passkey could not be added.");
    } catch {
      setProblem(UNREACHABLE_MESSAGE);
    } finally {
      setBusy(false);
    }
  });

  return (
    <FormDialog
      label="Add a passkey"
      submitText="Add passkey"
      busy={busy}
      problem={problem}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      <p>
        After you name it, your browser asks where to keep the passkey: this device, your phone or a security
        key.
      </p>
      <NameField form={form} />
    </FormDialog>
  );
}

/** Props of {@link RenamePasskeyDialog}. */
export interface RenamePasskeyDialogProps {
  passkey: PasskeyFieldsFragment;
  onClose(): void;
}

/** Renaming a passkey (no proof of identity: nothing about the sign-in changes). */
export function RenamePasskeyDialog({ passkey, onClose }: RenamePasskeyDialogProps) {
  useReturnFocus();
  const [problem, setProblem] = useState<string | null>(null);
  const [rename, state] = useMutation(RenamePasskeyDocument);
  const form = useForm<NameInput, unknown, NameValues>({
    resolver: zodResolver(renamePasskeySchema),
    defaultValues: { name: passkey.name },
  });
  const submit = form.handleSubmit(async ({ name }) => {
    setProblem(null);
    try {
      const answer = (await rename({ variables: { id: passkey.id, name } })).data?.renamePasskey;
      if (answer?.__typename === "MutationRenamePasskeySuccess") {
        showToast({ title: "Passkey renamed", description: answer.data.name, intent: Intent.SUCCESS });
        onClose();
        return;
      }
      setProblem(answer?.__typename === "AppError" ? answer.message : "The passkey could not be renamed.");
    } catch {
      setProblem(UNREACHABLE_MESSAGE);
    }
  });
  return (
    <FormDialog
      label="Rename passkey"
      submitText="Save name"
      busy={state.loading}
      problem={problem}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      <NameField form={form} />
    </FormDialog>
  );
}
