import { useQuery } from "@apollo/client/react";
import "./drawer/userDrawer.css";
import {
  Button,
  Drawer,
  H2,
  Intent,
  NonIdealState,
  Spinner,
  Tab,
  type TabId,
  Tabs,
  Tag,
} from "@blueprintjs/core";
import { Cross } from "@blueprintjs/icons";
import { AuditTrail } from "@web/features/admin-dashboard/audit/AuditTrail";
import { AdminUserDocument } from "@web/generated/graphql";
import { LoadError } from "@web/ui/LoadError";
import { tabOf } from "@web/ui/tabs";
import { type JSX, useCallback, useEffect, useId, useRef, useState } from "react";
import { AccountActions } from "./drawer/AccountActions";
import { AppointmentsTab, DocumentsTab, NotesTab } from "./drawer/HistoryTabs";
import { ProfileTab } from "./drawer/ProfileTab";
import { SessionsTab } from "./drawer/SessionsTab";
import { TwoFactorState } from "./drawer/TwoFactorState";
import { formatWhen, mayManage, USER_STATUS_LABELS, USER_TYPE_LABELS } from "./drawer/userDrawer";

/** Props of the user drawer (the contract the user-management page relies on). */
export interface UserDrawerProps {
  /** the user shown; null: the drawer is closed */
  userId: number | null;
  onClose(): void;
  /** after any change the drawer made, so the page can refresh its rows */
  onChanged(): void;
}

/**
 * One user for an administrator (manage:users; issue 11): a drawer, a modal dialog named by the
 * user's name, with the account's type, status and access level and its actions (each confirmed),
 * its two-factor sign-in (a mainAdmin may reset another user's),
 * and tabs for the profile, the notes the user sent the team, appointments, documents, open sessions
 * and the audit trail. Focus moves to the drawer's title when it opens and back to the opener when
 * it closes; Escape closes it.
 */
export function UserDrawer({ userId, onClose, onChanged }: UserDrawerProps): JSX.Element | null {
  return (
    <Drawer
      isOpen={userId !== null}
      onClose={onClose}
      size="min(46rem, 100%)"
      className="user-drawer"
      autoFocus={false}
      enforceFocus
      shouldReturnFocusOnClose
      canOutsideClickClose
    >
      {userId !== null ? (
        <UserDrawerContent key={userId} userId={userId} onClose={onClose} onChanged={onChanged} />
      ) : null}
    </Drawer>
  );
}

function UserDrawerContent({
  userId,
  onClose,
  onChanged,
}: {
  userId: number;
  onClose(): void;
  onChanged(): void;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [tab, setTab] = useState<TabId>("profile");
  const q = useQuery(AdminUserDocument, { variables: { id: userId }, fetchPolicy: "network-only" });
  const user = q.data?.adminUser ?? null;
  const grantable = q.data?.grantableUserTypes ?? [];
  const editable = user ? mayManage(user.userType, grantable) : false;
  const refetch = q.refetch;

  const dialog = useRef<HTMLDivElement>(null);
  const handleChanged = useCallback(() => {
    void refetch().catch(() => undefined);
    onChanged();
    // a change may disable the control that asked for it (Mark email verified): focus stays in the drawer
    window.setTimeout(() => {
      if (!dialog.current?.contains(document.activeElement)) heading.current?.focus();
    }, 50);
  }, [refetch, onChanged]);

  // focus the title once there is one (the dialog's name), so a screen reader starts there
  const loaded = user !== null;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : "User";

  return (
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      className="user-drawer-dialog"
    >
      <header className="user-drawer-header">
        <H2 id={titleId} ref={heading} tabIndex={-1} className="user-drawer-title">
          {user ? name : q.loading ? "Loading user" : "User"}
        </H2>
        <Button variant="minimal" icon={<Cross />} aria-label="Close" onClick={onClose} />
      </header>
      <div className="user-drawer-body">
        {q.error ? (
          <LoadError
            title="The user could not be loaded"
            error={q.error}
            onRetry={() => void refetch().catch(() => undefined)}
          />
        ) : !user ? (
          q.loading ? (
            <Spinner size={32} aria-label="Loading the user" />
          ) : (
            <NonIdealState title="No such user" description="The user may have been deleted." />
          )
        ) : (
          <>
            <div className="user-drawer-summary">
              <p className="user-drawer-email">{user.email}</p>
              <div className="user-drawer-tags">
                <Tag minimal round intent={Intent.PRIMARY}>
                  {USER_TYPE_LABELS[user.userType]}
                </Tag>
                <Tag minimal round intent={user.userStatus === "active" ? Intent.SUCCESS : Intent.WARNING}>
                  {USER_STATUS_LABELS[user.userStatus as keyof typeof USER_STATUS_LABELS] ?? user.userStatus}
                </Tag>
                <Tag minimal round intent={user.emailVerified ? Intent.SUCCESS : Intent.WARNING}>
                  {user.emailVerified ? "Email verified" : "Email not verified"}
                </Tag>
                {user.securityLevel === "enhanced" ? (
                  <Tag minimal round>
                    Enhanced security
                  </Tag>
                ) : null}
              </div>
              <p className="user-drawer-muted">
                ID {user.uniqueId} · Registered {formatWhen(user.createdAt)} · Last sign-in{" "}
                {formatWhen(user.lastLoginAt)}
              </p>
            </div>
            <AccountActions user={user} grantable={grantable} editable={editable} onChanged={handleChanged} />
            <TwoFactorState user={user} onChanged={handleChanged} />
            {/* `tabOf` marks each tab `disabled={false}`: Blueprint's arrow keys move only between tabs marked aria-disabled="false" */}
            <Tabs
              id={`user-drawer-tabs-${userId}`}
              selectedTabId={tab}
              onChange={setTab}
              renderActiveTabPanelOnly
              animate={false}
              className="user-drawer-tabs"
            >
              <Tab
                {...tabOf("profile", "Profile")}
                panel={
                  <ProfileTab
                    key={user.username + user.email}
                    user={user}
                    editable={editable}
                    onSaved={handleChanged}
                  />
                }
              />
              <Tab {...tabOf("notes", "Notes")} panel={<NotesTab userId={user.id} />} />
              <Tab {...tabOf("appointments", "Appointments")} panel={<AppointmentsTab userId={user.id} />} />
              <Tab {...tabOf("documents", "Documents")} panel={<DocumentsTab userId={user.id} />} />
              <Tab
                {...tabOf("sessions", "Sessions")}
                panel={<SessionsTab userId={user.id} editable={editable} onChanged={handleChanged} />}
              />
              <Tab {...tabOf("audit", "Audit trail")} panel={<AuditTrail targetUserId={user.id} compact />} />
            </Tabs>
          </>
        )}
      </div>
    </div>
  );
}
