import { useMutation, useQuery } from "@apollo/client/react";
import { Button, Intent, Spinner, Tag } from "@blueprintjs/core";
import { Lock } from "@blueprintjs/icons";
import { useCurrentUser } from "@web/data/rest";
import { readAnswer, thrownMessage } from "@web/features/sync/esrtSync";
import {
  AdminResetTwoFactorDocument,
  type AdminUserFieldsFragment,
  AdminUserTwoFactorDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { useId, useState } from "react";
import { twoFactorSummary } from "./userDrawer";

/** Props of {@link TwoFactorState}. */
export interface TwoFactorStateProps {
  user: AdminUserFieldsFragment;
  onChanged(): void;
}

/**
 * A user's two-factor sign-in in the drawer (issue 20): on or off and with what; for a mainAdmin
 * looking at another user who has it on, "Reset two-factor sign-in" (a lost phone), confirmed
 * first: every second factor and recovery code goes, and the user is told by email.
 */
export function TwoFactorState({ user, onChanged }: TwoFactorStateProps) {
  const headingId = useId();
  const viewer = useCurrentUser().user;
  const q = useQuery(AdminUserTwoFactorDocument, { variables: { id: user.id }, fetchPolicy: "network-only" });
  const [reset] = useMutation(AdminResetTwoFactorDocument);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = q.data?.adminUserTwoFactor;
  const mayReset = viewer?.userType === "mainAdmin" && viewer.id !== user.id && state?.enabled === true;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;

  const handleReset = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const outcome = readAnswer(
        (await reset({ variables: { userId: user.id } })).data?.adminResetTwoFactor,
        "Two-factor sign-in could not be reset",
      );
      if (!outcome.ok) return setProblem(outcome.message);
      showToast({ title: outcome.data.message, intent: Intent.SUCCESS });
      setConfirming(false);
      await q.refetch().catch(() => undefined);
      onChanged();
    } catch (caught) {
      setProblem(thrownMessage(caught, "Two-factor sign-in could not be reset"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="user-drawer-two-factor" aria-labelledby={headingId}>
      <h3 id={headingId} className="user-drawer-subheading">
        Two-factor sign-in
      </h3>
      {q.error ? (
        <p className="user-drawer-muted">The two-factor state could not be loaded: {q.error.message}</p>
      ) : !state ? (
        <Spinner size={16} aria-label="Loading the two-factor state" />
      ) : (
        <div className="user-drawer-two-factor-row">
          <Tag minimal round icon={<Lock />} intent={state.enabled ? Intent.SUCCESS : Intent.NONE}>
            {state.enabled ? "On" : "Off"}
          </Tag>
          <span className="user-drawer-muted">{twoFactorSummary(state)}</span>
          {mayReset ? (
            <Button
              text="Reset two-factor sign-in"
              intent={Intent.DANGER}
              onClick={() => {
                setProblem(null);
                setConfirming(true);
              }}
            />
          ) : null}
        </div>
      )}
      {confirming ? (
        <ConfirmDialog
          title="Reset two-factor sign-in?"
          confirmText="Reset two-factor sign-in"
          intent={Intent.DANGER}
          loading={busy}
          problem={problem}
          onConfirm={() => void handleReset()}
          onClose={() => setConfirming(false)}
        >
          <p>
            {name}'s authenticator app, passkeys and recovery codes are removed, and they are told by email.
            Their password alone signs them in until they set up two-factor sign-in again (or, where the
            security settings require it, they must set it up at their next sign-in).
          </p>
          <p>
            Do this only when you have made sure it is really them asking, for instance after a lost phone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
