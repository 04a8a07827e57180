import { useMutation, useQuery } from "@apollo/client/react";
import "./twoFactor.css";
import {
  Button,
  Callout,
  Card,
  Classes,
  H1,
  H2,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { Edit, Key, Lock, MobilePhone, Refresh, Trash } from "@blueprintjs/icons";
import { refetchCurrentUser, useCurrentUser } from "@web/data/rest";
import { formatInstant } from "@web/features/sync/esrtSync";
import {
  type PasskeyFieldsFragment,
  RegenerateRecoveryCodesDocument,
  RemoveAuthenticatorDocument,
  RemovePasskeyDocument,
  StartAuthenticatorDocument,
  TurnOffTwoFactorDocument,
  TwoFactorStatusDocument,
  type TwoFactorStatusFieldsFragment,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { DataTable } from "@web/ui/DataTable";
import { LoadError } from "@web/ui/LoadError";
import { type ReactNode, useId, useState } from "react";
import { useNavigate } from "react-router-dom";
import { AuthenticatorDialog, type AuthenticatorSetup } from "./AuthenticatorDialog";
import { type IdentityProof, useIdentityProof } from "./IdentityProof";
import { AddPasskeyDialog, RenamePasskeyDialog } from "./PasskeyDialogs";
import { passkeysAvailable } from "./passkeyCeremony";
import { RecoveryCodesDialog } from "./RecoveryCodesDialog";
import { RECOVERY_CODE_COUNT, UNREACHABLE_MESSAGE } from "./twoFactor";

/** The dialog open on the page. */
type Open =
  | { kind: "authenticator"; setup: AuthenticatorSetup }
  | { kind: "addPasskey" }
  | { kind: "renamePasskey"; passkey: PasskeyFieldsFragment }
  | { kind: "removePasskey"; passkey: PasskeyFieldsFragment }
  | { kind: "removeAuthenticator" }
  | { kind: "regenerate" }
  | { kind: "turnOff" };

/** Recovery codes being shown, and whether closing them ends an enrolment the settings required. */
interface ShownCodes {
  codes: readonly string[];
  thenContinue: boolean;
}

/**
 * /two-factor (issue 20), the user menu's "Two-factor sign-in": whether a second factor is asked
 * at sign-in, the authenticator app (set up with a QR code and a first code, or removed), the
 * passkeys (added, renamed, removed), the recovery codes (shown once, regenerated) and turning it
 * off. Every change but a rename needs a proof of identity from the last five minutes ("Confirm
 * it's you"). A session the security settings limit to enrolling sees this page only, and goes on
 * to the portal once its first second factor is set up.
 */
export function TwoFactorPage() {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const enrolling = user?.needsTwoFactorEnrolment === true;
  const q = useQuery(TwoFactorStatusDocument, { fetchPolicy: "cache-and-network" });
  const status = q.data?.twoFactorStatus;
  const { proof, dialog: proofDialog } = useIdentityProof(status);
  const [open, setOpen] = useState<Open | null>(null);
  const [shown, setShown] = useState<ShownCodes | null>(null);
  const [starting, setStarting] = useState(false);
  const [start] = useMutation(StartAuthenticatorDocument);
  const close = () => setOpen(null);

  /** A second factor was set up: its recovery codes (the first ones) to show, and the session freed. */
  const handleEnrolled = async (what: string, codes: readonly string[] | null) => {
    setOpen(null);
    const wasEnrolling = enrolling;
    // a session limited to enrolling is a full one from now on: the portal opens
    if (wasEnrolling) await refetchCurrentUser();
    showToast({ title: `${what} added`, description: "Two-factor sign-in is on.", intent: Intent.SUCCESS });
    if (codes && codes.length > 0) setShown({ codes, thenContinue: wasEnrolling });
    else if (wasEnrolling) navigate("/dashboard");
  };

  const handleStartAuthenticator = async () => {
    setStarting(true);
    try {
      const answer = await proof.run(async () => (await start()).data?.startAuthenticator);
      if (answer === null) return;
      if (answer?.__typename === "MutationStartAuthenticatorSuccess") {
        setOpen({ kind: "authenticator", setup: answer.data });
        return;
      }
      showToast({
        title: "The authenticator app could not be set up",
        description: answer?.__typename === "AppError" ? answer.message : undefined,
        intent: "destructive",
      });
    } catch {
      showToast({
        title: "The authenticator app could not be set up",
        description: UNREACHABLE_MESSAGE,
        intent: "destructive",
      });
    } finally {
      setStarting(false);
    }
  };

  const handleCodesSaved = () => {
    const thenContinue = shown?.thenContinue === true;
    setShown(null);
    if (thenContinue) navigate("/dashboard");
  };

  return (
    <section className="portal-page two-factor-page">
      <H1>Two-factor sign-in</H1>
      {q.error && !status ? (
        <LoadError
          title="Two-factor sign-in could not be loaded"
          error={q.error}
          onRetry={() => void q.refetch().catch(() => undefined)}
        />
      ) : !status ? (
        <Spinner size={32} aria-label="Loading two-factor sign-in" />
      ) : (
        <>
          <StatusCallout status={status} enrolling={enrolling} />
          <div className="two-factor-sections">
            <AuthenticatorSection
              status={status}
              starting={starting}
              onStart={() => void handleStartAuthenticator()}
              onRemove={() => setOpen({ kind: "removeAuthenticator" })}
            />
            <PasskeysSection
              status={status}
              onAdd={() => setOpen({ kind: "addPasskey" })}
              onRename={(passkey) => setOpen({ kind: "renamePasskey", passkey })}
              onRemove={(passkey) => setOpen({ kind: "removePasskey", passkey })}
            />
            {status.enabled ? (
              <RecoveryCodesSection status={status} onRegenerate={() => setOpen({ kind: "regenerate" })} />
            ) : null}
            {status.enabled ? (
              <TurnOffSection status={status} onTurnOff={() => setOpen({ kind: "turnOff" })} />
            ) : null}
          </div>
          <PageDialogs
            open={open}
            status={status}
            proof={proof}
            onClose={close}
            onEnrolled={(what, codes) => void handleEnrolled(what, codes)}
            onCodes={(codes) => {
              setOpen(null);
              setShown({ codes, thenContinue: false });
            }}
          />
        </>
      )}
      {shown ? (
        <RecoveryCodesDialog
          codes={shown.codes}
          account={user?.email ?? ""}
          doneText={shown.thenContinue ? "I have saved them, continue" : undefined}
          onClose={handleCodesSaved}
        />
      ) : null}
      {proofDialog}
    </section>
  );
}

/** Whether two-factor sign-in is on, and what the security settings ask of this account. */
function StatusCallout({ status, enrolling }: { status: TwoFactorStatusFieldsFragment; enrolling: boolean }) {
  if (enrolling || (status.required && !status.enabled)) {
    return (
      <Callout intent={Intent.WARNING} icon={<Lock />} title="Set up two-factor sign-in to continue">
        The portal's security settings require a second step at sign-in for your account. Set up an
        authenticator app or add a passkey below; the portal opens as soon as one is set up.
      </Callout>
    );
  }
  if (status.enabled) {
    return (
      <Callout intent={Intent.SUCCESS} icon={<Lock />} title="Two-factor sign-in is on">
        After your password, the portal asks for a code from your authenticator app or one of your passkeys.
        {status.required ? " The security settings require it for your account." : ""}
      </Callout>
    );
  }
  return (
    <Callout icon={<Lock />} title="Two-factor sign-in is off">
      Your password alone signs you in. Set up an authenticator app or add a passkey, so that a stolen
      password is not enough to open your account.
    </Callout>
  );
}

/** A card of the page with its heading. */
function Section({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card className="two-factor-section" aria-labelledby={headingId} role="region">
      <H2 id={headingId} className="two-factor-section-title">
        {icon}
        {title}
      </H2>
      {children}
    </Card>
  );
}

function AuthenticatorSection({
  status,
  starting,
  onStart,
  onRemove,
}: {
  status: TwoFactorStatusFieldsFragment;
  starting: boolean;
  onStart(): void;
  onRemove(): void;
}) {
  return (
    <Section title="Authenticator app" icon={<MobilePhone />}>
      {status.authenticatorAddedAt ? (
        <>
          <p>
            <Tag minimal round intent={Intent.SUCCESS}>
              Set up
            </Tag>{" "}
            on {formatInstant(status.authenticatorAddedAt)}. Sign-in asks for the 6-digit code it shows.
          </p>
          <Button
            icon={<Trash />}
            intent={Intent.DANGER}
            text="Remove authenticator app"
            onClick={onRemove}
          />
        </>
      ) : (
        <>
          <p>
            An app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) shows a
            new 6-digit code every 30 seconds.
          </p>
          <Button
            intent={Intent.PRIMARY}
            icon={<MobilePhone />}
            text="Set up an authenticator app"
            loading={starting}
            onClick={onStart}
          />
        </>
      )}
    </Section>
  );
}

function PasskeysSection({
  status,
  onAdd,
  onRename,
  onRemove,
}: {
  status: TwoFactorStatusFieldsFragment;
  onAdd(): void;
  onRename(passkey: PasskeyFieldsFragment): void;
  onRemove(passkey: PasskeyFieldsFragment): void;
}) {
  const available = passkeysAvailable();
  return (
    <Section title="Passkeys" icon={<Key />}>
      <p>
        A passkey is kept by this device, your phone or a security key, and unlocked with its PIN, fingerprint
        or face. It can also sign you in without a password.
      </p>
      {status.passkeys.length === 0 ? (
        <NonIdealState
          className="two-factor-empty"
          icon={<Key />}
          title="No passkeys yet"
          description="Add one to sign in with this device, your phone or a security key."
        />
      ) : (
        <DataTable
          scrollClassName="two-factor-table-scroll"
          label="Passkeys"
          striped
          columns={["Name", "Added", "Last used"]}
          actions
          rows={status.passkeys}
        >
          {(p) => (
            <tr key={p.id}>
              <td className="two-factor-wrap">{p.name}</td>
              <td>{formatInstant(p.createdAt)}</td>
              <td>{formatInstant(p.lastUsedAt, "Not used yet")}</td>
              <td className="two-factor-row-actions">
                <Button
                  variant="minimal"
                  size="small"
                  icon={<Edit />}
                  text="Rename"
                  aria-label={`Rename ${p.name}`}
                  onClick={() => onRename(p)}
                />
                <Button
                  variant="minimal"
                  size="small"
                  intent={Intent.DANGER}
                  icon={<Trash />}
                  text="Remove"
                  aria-label={`Remove ${p.name}`}
                  onClick={() => onRemove(p)}
                />
              </td>
            </tr>
          )}
        </DataTable>
      )}
      <div className="portal-actions">
        <Button
          intent={status.passkeys.length === 0 ? Intent.PRIMARY : Intent.NONE}
          icon={<Key />}
          text="Add a passkey"
          disabled={!available}
          onClick={onAdd}
        />
      </div>
      {available ? null : (
        <p className={Classes.TEXT_MUTED}>
          This browser cannot use passkeys. Use an authenticator app instead.
        </p>
      )}
    </Section>
  );
}

function RecoveryCodesSection({
  status,
  onRegenerate,
}: {
  status: TwoFactorStatusFieldsFragment;
  onRegenerate(): void;
}) {
  const left = status.recoveryCodesLeft;
  return (
    <Section title="Recovery codes" icon={<Refresh />}>
      <p>
        Each recovery code signs you in once when your authenticator app or passkey is not at hand.{" "}
        <strong>
          {left} of {RECOVERY_CODE_COUNT} unused
        </strong>
        .
      </p>
      {left <= 3 ? (
        <Callout intent={Intent.WARNING} compact>
          {left === 0 ? "You have no recovery codes left." : "You are running out of recovery codes."}{" "}
          Generate new ones and keep them somewhere safe.
        </Callout>
      ) : null}
      <div className="portal-actions">
        <Button icon={<Refresh />} text="Generate new recovery codes" onClick={onRegenerate} />
      </div>
    </Section>
  );
}

function TurnOffSection({ status, onTurnOff }: { status: TwoFactorStatusFieldsFragment; onTurnOff(): void }) {
  return (
    <Section title="Turn off" icon={<Lock />}>
      {status.required ? (
        <p className={Classes.TEXT_MUTED}>
          The security settings require two-factor sign-in for your account, so it cannot be turned off.
        </p>
      ) : (
        <>
          <p>Your password alone will sign you in again.</p>
          <Button intent={Intent.DANGER} text="Turn off two-factor sign-in" onClick={onTurnOff} />
        </>
      )}
    </Section>
  );
}

/** Props of {@link PageDialogs}. */
interface PageDialogsProps {
  open: Open | null;
  status: TwoFactorStatusFieldsFragment;
  proof: IdentityProof;
  onClose(): void;
  /** a second factor was set up: what it was, and the account's first recovery codes */
  onEnrolled(what: string, codes: readonly string[] | null): void;
  /** new recovery codes to show */
  onCodes(codes: readonly string[]): void;
}

/** The dialog the page has open: a set-up, a rename, or a change to confirm. */
function PageDialogs({ open, status, proof, onClose, onEnrolled, onCodes }: PageDialogsProps) {
  const [removeAuthenticator] = useMutation(RemoveAuthenticatorDocument, {
    refetchQueries: [TwoFactorStatusDocument],
  });
  const [removePasskey] = useMutation(RemovePasskeyDocument, { refetchQueries: [TwoFactorStatusDocument] });
  const [regenerate] = useMutation(RegenerateRecoveryCodesDocument, {
    refetchQueries: [TwoFactorStatusDocument],
  });
  const [turnOff] = useMutation(TurnOffTwoFactorDocument, { refetchQueries: [TwoFactorStatusDocument] });
  if (!open) return null;
  const done = (title: string) => {
    showToast({ title, intent: Intent.SUCCESS });
    onClose();
  };
  switch (open.kind) {
    case "authenticator":
      return (
        <AuthenticatorDialog
          setup={open.setup}
          proof={proof}
          onDone={(codes) => onEnrolled("Authenticator app", codes)}
          onClose={onClose}
        />
      );
    case "addPasskey":
      return (
        <AddPasskeyDialog
          proof={proof}
          onDone={(name, codes) => onEnrolled(`Passkey “${name}”`, codes)}
          onClose={onClose}
        />
      );
    case "renamePasskey":
      return <RenamePasskeyDialog passkey={open.passkey} onClose={onClose} />;
    case "removePasskey":
      return (
        <ChangeDialog
          title="Remove this passkey?"
          confirmText="Remove passkey"
          proof={proof}
          send={async () => (await removePasskey({ variables: { id: open.passkey.id } })).data?.removePasskey}
          onDone={() => done("Passkey removed")}
          onClose={onClose}
        >
          <p>
            “{open.passkey.name}” will no longer sign you in. Remove it from the device or password manager
            that keeps it too.
          </p>
        </ChangeDialog>
      );
    case "removeAuthenticator":
      return (
        <ChangeDialog
          title="Remove the authenticator app?"
          confirmText="Remove app"
          proof={proof}
          send={async () => (await removeAuthenticator()).data?.removeAuthenticator}
          onDone={() => done("Authenticator app removed")}
          onClose={onClose}
        >
          <p>
            Its codes will no longer sign you in.
            {status.passkeys.length === 0 ? " Without a passkey, two-factor sign-in turns off." : ""}
          </p>
        </ChangeDialog>
      );
    case "regenerate":
      return (
        <ChangeDialog
          title="Generate new recovery codes?"
          confirmText="Generate new codes"
          intent={Intent.PRIMARY}
          proof={proof}
          send={async () => (await regenerate()).data?.regenerateRecoveryCodes}
          onDone={(answer) => {
            if (answer.__typename === "MutationRegenerateRecoveryCodesSuccess") onCodes(answer.data);
          }}
          onClose={onClose}
        >
          <p>
            Ten new codes replace yours: the {status.recoveryCodesLeft} you have not used stop working at
            once.
          </p>
        </ChangeDialog>
      );
    case "turnOff":
      return (
        <ChangeDialog
          title="Turn off two-factor sign-in?"
          confirmText="Turn off"
          proof={proof}
          send={async () => (await turnOff()).data?.turnOffTwoFactor}
          onDone={() => done("Two-factor sign-in is off")}
          onClose={onClose}
        >
          <p>
            {sentenceCase(
              `${listed(factorsOf(status))} will be removed, and your password alone signs you in.`,
            )}
          </p>
        </ChangeDialog>
      );
  }
}

/** What the account holds, in words: "your authenticator app", "your 2 passkeys", "your recovery codes". */
function factorsOf(status: TwoFactorStatusFieldsFragment): string[] {
  const count = status.passkeys.length;
  return [
    ...(status.authenticatorAddedAt ? ["your authenticator app"] : []),
    ...(count > 0 ? [count === 1 ? "your passkey" : `your ${count} passkeys`] : []),
    "your recovery codes",
  ];
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** The sentence with its first letter a capital. */
function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A mutation's typed answer: the success member or an AppError. */
type Answer = { __typename: string; code?: string; message?: string };

/** Props of {@link ChangeDialog}. */
interface ChangeDialogProps<A extends Answer> {
  title: string;
  confirmText: string;
  intent?: Intent;
  proof: IdentityProof;
  send(): Promise<A | null | undefined>;
  onDone(answer: A): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * A change to confirm: confirming sends it behind a fresh proof of identity; a refusal shows in
 * the dialog, a success goes on to `onDone`.
 */
function ChangeDialog<A extends Answer>({
  title,
  confirmText,
  intent = Intent.DANGER,
  proof,
  send,
  onDone,
  onClose,
  children,
}: ChangeDialogProps<A>) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const handleConfirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await proof.run(send);
      if (answer === null) return;
      if (answer && answer.__typename !== "AppError") return onDone(answer);
      setProblem(answer?.message || "The change could not be made.");
    } catch {
      setProblem(UNREACHABLE_MESSAGE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={title}
      confirmText={confirmText}
      intent={intent}
      loading={busy}
      problem={problem}
      onConfirm={() => void handleConfirm()}
      onClose={onClose}
    >
      {children}
    </ConfirmDialog>
  );
}
