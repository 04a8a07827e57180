import { Classes } from "@blueprintjs/core";
import { formatDateTime } from "@web/features/documents/documents";
import type { AuditEntryFieldsFragment } from "@web/generated/graphql";
import { actorLabel, describeChange, targetLabel } from "./audit/auditTrail";

/** Props of the recent activity feed. */
export interface RecentActivityProps {
  entries: readonly AuditEntryFieldsFragment[];
}

/** The latest audit entries as a short feed: who did what to whom, and when. */
export function RecentActivity({ entries }: RecentActivityProps) {
  if (entries.length === 0) {
    return <p className={Classes.TEXT_MUTED}>Nothing has happened yet.</p>;
  }
  return (
    <ol className="dashboard-activity">
      {entries.map((e) => {
        const target = targetLabel(e);
        const change = describeChange(e.before, e.after);
        return (
          <li key={e.id}>
            <span className="dashboard-activity-what">
              <strong>{actorLabel(e)}</strong> <code>{e.action}</code>
              {target ? ` ${target}` : ""}
              {change ? ` (${change})` : ""}
            </span>
            <time className={Classes.TEXT_MUTED} dateTime={String(e.createdAt)}>
              {formatDateTime(String(e.createdAt))}
            </time>
          </li>
        );
      })}
    </ol>
  );
}
