import "@web/ui/toolbars.css";
import { useMutation, useQuery } from "@apollo/client/react";
import { Button, HTMLTable, Intent, NonIdealState, Spinner } from "@blueprintjs/core";
import { readAnswer, thrownMessage } from "@web/features/sync/esrtSync";
import {
  AdminRevokeUserSessionDocument,
  AdminRevokeUserSessionsDocument,
  AdminUserSessionsDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { LoadError } from "@web/ui/LoadError";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { type JSX, useState } from "react";
import { ADMIN_SESSIONS_MESSAGE, formatWhen } from "./userDrawer";

/** Props of the sessions tab. */
export interface SessionsTabProps {
  userId: number;
  /** whether the signed-in administrator may change this account (and so see its sessions) */
  editable: boolean;
  onChanged(): void;
}

type Revoking = { kind: "one"; id: string; device: string } | { kind: "all" };

/**
 * The user's open sessions: the device and address each was granted to, when it signed in and was
 * last active; revoke one, or all. A revoked session ends at once: its next request is signed out.
 * An account the administrator may not manage (an administrator, for a userAdmin) shows none: the
 * server refuses them too.
 */
export function SessionsTab({ userId, editable, onChanged }: SessionsTabProps) {
  if (!editable) {
    return (
      <NonIdealState
        className="user-drawer-sessions"
        title="Sessions not shown"
        description={ADMIN_SESSIONS_MESSAGE}
      />
    );
  }
  return <SessionsList userId={userId} onChanged={onChanged} />;
}

function SessionsList({ userId, onChanged }: Omit<SessionsTabProps, "editable">) {
  const q = useQuery(AdminUserSessionsDocument, { variables: { id: userId }, fetchPolicy: "network-only" });
  const [revoking, setRevoking] = useState<Revoking | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [revokeOne, oneState] = useMutation(AdminRevokeUserSessionDocument);
  const [revokeAll, allState] = useMutation(AdminRevokeUserSessionsDocument);
  const sessions = q.data?.adminUser?.sessions ?? [];
  const busy = oneState.loading || allState.loading;

  const confirm = async () => {
    if (!revoking) return;
    setProblem(null);
    const failure = "The session could not be ended";
    try {
      const answer =
        revoking.kind === "one"
          ? readAnswer(
              (await revokeOne({ variables: { userId, sessionId: revoking.id } })).data
                ?.adminRevokeUserSession,
              failure,
            )
          : readAnswer((await revokeAll({ variables: { userId } })).data?.adminRevokeUserSessions, failure);
      if (!answer.ok) return setProblem(answer.message);
      const ended = answer.data.ended;
      showToast({
        title: ended === 1 ? "1 session ended" : `${ended} sessions ended`,
        intent: Intent.SUCCESS,
      });
      setRevoking(null);
      void q.refetch().catch(() => undefined);
      onChanged();
    } catch (caught) {
      setProblem(thrownMessage(caught, failure));
    }
  };

  let body: JSX.Element;
  if (q.error) {
    body = (
      <LoadError
        title="The sessions could not be loaded"
        error={q.error}
        onRetry={() => void q.refetch().catch(() => undefined)}
      />
    );
  } else if (q.loading && !q.data) {
    body = <Spinner size={24} aria-label="Loading the sessions" />;
  } else if (sessions.length === 0) {
    body = <NonIdealState title="No open sessions" description="The user is not signed in anywhere." />;
  } else {
    body = (
      <ScrollRegion label="Open sessions" className="user-drawer-scroll">
        <HTMLTable compact striped className="user-drawer-table">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="portal-visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>{s.device}</td>
                <td>{s.ip ?? "Unknown"}</td>
                <td>{formatWhen(s.signedInAt)}</td>
                <td>{formatWhen(s.lastSeenAt)}</td>
                <td>
                  <Button
                    size="small"
                    text="Revoke"
                    aria-label={`Revoke the session on ${s.device}, last seen ${formatWhen(s.lastSeenAt)}`}
                    onClick={() => {
                      setProblem(null);
                      setRevoking({ kind: "one", id: s.id, device: s.device });
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    );
  }

  return (
    <div className="user-drawer-sessions">
      <div className="user-drawer-section-head">
        <p>{sessions.length === 1 ? "1 open session" : `${sessions.length} open sessions`}</p>
        <Button
          text="Revoke all sessions"
          intent={Intent.DANGER}
          disabled={sessions.length === 0}
          onClick={() => {
            setProblem(null);
            setRevoking({ kind: "all" });
          }}
        />
      </div>
      {body}
      {revoking ? (
        <ConfirmDialog
          title={revoking.kind === "one" ? "End this session?" : "End every session?"}
          confirmText={revoking.kind === "one" ? "End session" : "End all sessions"}
          intent={Intent.DANGER}
          loading={busy}
          problem={problem}
          onConfirm={() => void confirm()}
          onClose={() => setRevoking(null)}
        >
          <p>
            {revoking.kind === "one"
              ? `The session on ${revoking.device} is signed out at once.`
              : "The user is signed out everywhere at once. They can sign in again."}
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
