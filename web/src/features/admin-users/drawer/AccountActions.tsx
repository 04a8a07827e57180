import { useMutation } from "@apollo/client/react";
import { Button, FormGroup, HTMLSelect, Intent } from "@blueprintjs/core";
import { readAnswer, thrownMessage } from "@web/features/sync/esrtSync";
import {
  type AccessLevel,
  AdminChangeUserAccessLevelDocument,
  AdminChangeUserStatusDocument,
  AdminChangeUserTypeDocument,
  AdminClearSecurityQuestionsDocument,
  AdminMarkEmailVerifiedDocument,
  AdminResendInvitationDocument,
  AdminResendVerificationDocument,
  AdminSendPasswordResetDocument,
  type AdminUserFieldsFragment,
  type UserStatus,
  type UserType,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { useId, useState } from "react";
import {
  ACCESS_LEVEL_LABELS,
  ACCESS_LEVELS,
  USER_STATUS_LABELS,
  USER_STATUSES,
  USER_TYPE_LABELS,
} from "./userDrawer";

/** Props of the account actions. */
export interface AccountActionsProps {
  user: AdminUserFieldsFragment;
  /** the types the signed-in administrator may give or take away */
  grantable: readonly UserType[];
  /** whether the signed-in administrator may change this account */
  editable: boolean;
  onChanged(): void;
}

/** The change waiting for its confirmation. */
type Pending =
  | { kind: "type"; value: UserType }
  | { kind: "status"; value: UserStatus }
  | { kind: "access"; value: AccessLevel }
  | { kind: "invitation" | "verification" | "verified" | "reset" | "questions" };

interface Answer {
  ok: boolean;
  message: string;
}

/**
 * The account's type, status and Pro-app access level (selects) and its actions (buttons): each
 * change asks first in a dialog (Enter goes ahead, Escape does not; focus returns to the control).
 * The type select offers only the types the signed-in administrator may grant; the server decides.
 */
export function AccountActions({ user, grantable, editable, onChanged }: AccountActionsProps) {
  const ids = { type: useId(), status: useId(), access: useId() };
  const [pending, setPending] = useState<Pending | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [changeType] = useMutation(AdminChangeUserTypeDocument);
  const [changeStatus] = useMutation(AdminChangeUserStatusDocument);
  const [changeAccess] = useMutation(AdminChangeUserAccessLevelDocument);
  const [resend] = useMutation(AdminResendVerificationDocument);
  const [reinvite] = useMutation(AdminResendInvitationDocument);
  const [markVerified] = useMutation(AdminMarkEmailVerifiedDocument);
  const [sendReset] = useMutation(AdminSendPasswordResetDocument);
  const [clearQuestions] = useMutation(AdminClearSecurityQuestionsDocument);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  const typeOptions = grantable.includes(user.userType) ? grantable : [user.userType];
  const status = user.userStatus as UserStatus;
  const access = user.accessLevel as AccessLevel;

  const open = (next: Pending) => {
    setProblem(null);
    setPending(next);
  };

  const run = async (change: Pending): Promise<Answer> => {
    const failure = "The change could not be made";
    const variables = { userId: user.id };
    switch (change.kind) {
      case "type": {
        const r = await changeType({ variables: { ...variables, userType: change.value } });
        return said(
          readAnswer(r.data?.changeUserType, failure),
          `${name} is now ${USER_TYPE_LABELS[change.value]}`,
        );
      }
      case "status": {
        const r = await changeStatus({ variables: { ...variables, status: change.value } });
        return said(
          readAnswer(r.data?.changeUserStatus, failure),
          `${name} is now ${USER_STATUS_LABELS[change.value].toLowerCase()}`,
        );
      }
      case "access": {
        const r = await changeAccess({ variables: { ...variables, accessLevel: change.value } });
        return said(
          readAnswer(r.data?.changeUserAccessLevel, failure),
          `Pro-app access is now ${ACCESS_LEVEL_LABELS[change.value].toLowerCase()}`,
        );
      }
      case "invitation":
        return told(readAnswer((await reinvite({ variables })).data?.adminResendInvitation, failure));
      case "verification":
        return told(readAnswer((await resend({ variables })).data?.adminResendVerification, failure));
      case "verified":
        return told(readAnswer((await markVerified({ variables })).data?.adminMarkEmailVerified, failure));
      case "reset":
        return told(readAnswer((await sendReset({ variables })).data?.adminSendPasswordReset, failure));
      case "questions":
        return told(
          readAnswer((await clearQuestions({ variables })).data?.adminClearSecurityQuestions, failure),
        );
    }
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await run(pending);
      if (!answer.ok) {
        setProblem(answer.message);
        return;
      }
      showToast({ title: answer.message, intent: Intent.SUCCESS });
      setPending(null);
      onChanged();
    } catch (caught) {
      setProblem(thrownMessage(caught, "The change could not be made"));
    } finally {
      setBusy(false);
    }
  };

  const question = pending ? questionOf(pending, name, user.email) : null;

  return (
    <section className="user-drawer-account" aria-label="Account">
      <div className="user-drawer-selects">
        <FormGroup label="User type" labelFor={ids.type}>
          <HTMLSelect
            id={ids.type}
            value={user.userType}
            disabled={!editable}
            onChange={(e) => open({ kind: "type", value: e.currentTarget.value as UserType })}
          >
            {typeOptions.map((type) => (
              <option key={type} value={type}>
                {USER_TYPE_LABELS[type]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label="Status" labelFor={ids.status}>
          <HTMLSelect
            id={ids.status}
            value={status}
            disabled={!editable}
            onChange={(e) => open({ kind: "status", value: e.currentTarget.value as UserStatus })}
          >
            {USER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {USER_STATUS_LABELS[value]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label="Pro-app access" labelFor={ids.access}>
          <HTMLSelect
            id={ids.access}
            value={access}
            disabled={!editable}
            onChange={(e) => open({ kind: "access", value: e.currentTarget.value as AccessLevel })}
          >
            {ACCESS_LEVELS.map((value) => (
              <option key={value} value={value}>
                {ACCESS_LEVEL_LABELS[value]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </div>
      <div className="user-drawer-buttons">
        {user.invitationPending ? (
          <Button
            text="Resend invitation"
            disabled={!editable || status !== "active"}
            onClick={() => open({ kind: "invitation" })}
          />
        ) : null}
        <Button
          text="Resend verification email"
          disabled={!editable || user.emailVerified || status !== "active"}
          onClick={() => open({ kind: "verification" })}
        />
        <Button
          text="Mark email verified"
          disabled={!editable || user.emailVerified}
          onClick={() => open({ kind: "verified" })}
        />
        <Button
          text="Send password reset"
          disabled={!editable || status !== "active"}
          onClick={() => open({ kind: "reset" })}
        />
        <Button
          text="Clear security questions"
          disabled={!editable || (!user.securityQuestionsSet && user.securityLevel === "standard")}
          onClick={() => open({ kind: "questions" })}
        />
      </div>
      {pending && question ? (
        <ConfirmDialog
          title={question.title}
          confirmText={question.confirm}
          intent={question.intent}
          loading={busy}
          problem={problem}
          onConfirm={() => void confirm()}
          onClose={() => setPending(null)}
        >
          <p>{question.body}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function said(outcome: { ok: true } | { ok: false; message: string }, success: string): Answer {
  return outcome.ok ? { ok: true, message: success } : { ok: false, message: outcome.message };
}

function told(outcome: { ok: true; data: { message: string } } | { ok: false; message: string }): Answer {
  return outcome.ok ? { ok: true, message: outcome.data.message } : { ok: false, message: outcome.message };
}

/** The confirmation's words for a change. */
function questionOf(
  change: Pending,
  name: string,
  email: string,
): { title: string; body: string; confirm: string; intent: Intent } {
  switch (change.kind) {
    case "type":
      return {
        title: "Change the user type?",
        body: `${name} becomes ${USER_TYPE_LABELS[change.value]}. Their open sessions carry the new rights from their next page.`,
        confirm: `Make ${USER_TYPE_LABELS[change.value]}`,
        intent: Intent.PRIMARY,
      };
    case "status":
      return change.value === "active"
        ? {
            title: "Activate the account?",
            body: `${name} can sign in again.`,
            confirm: "Activate",
            intent: Intent.PRIMARY,
          }
        : {
            title: `Make the account ${USER_STATUS_LABELS[change.value].toLowerCase()}?`,
            body: `${name} is signed out everywhere at once and cannot sign in until the account is active again.`,
            confirm: change.value === "archived" ? "Archive" : "Deactivate",
            intent: Intent.DANGER,
          };
    case "access":
      return {
        title: "Change Pro-app access?",
        body: `${name} gets ${ACCESS_LEVEL_LABELS[change.value].toLowerCase()} access in ESRT Pro. Nothing changes inside the portal.`,
        confirm: "Change access",
        intent: Intent.PRIMARY,
      };
    case "invitation":
      return {
        title: "Resend the invitation?",
        body: `${name} has not set a password yet. A new invitation goes to ${email}, with a set-password link valid for 72 hours; the previous link stops working.`,
        confirm: "Send invitation",
        intent: Intent.PRIMARY,
      };
    case "verification":
      return {
        title: "Resend the verification email?",
        body: `A new verification link goes to ${email}; the previous link stops working.`,
        confirm: "Send",
        intent: Intent.PRIMARY,
      };
    case "verified":
      return {
        title: "Mark the email address verified?",
        body: `Only when you have confirmed ${email} belongs to ${name}. Outstanding verification links stop working.`,
        confirm: "Mark verified",
        intent: Intent.PRIMARY,
      };
    case "reset":
      return {
        title: "Send a password reset?",
        body: `${name} receives the password-reset email at ${email}, with a link valid for 60 minutes. Their password is unchanged until they use it.`,
        confirm: "Send reset",
        intent: Intent.PRIMARY,
      };
    case "questions":
      return {
        title: "Clear the security questions?",
        body: `${name}'s security questions and answers are deleted and their sign-in returns to the standard level (password only). They can set new questions in their account.`,
        confirm: "Clear questions",
        intent: Intent.DANGER,
      };
  }
}
