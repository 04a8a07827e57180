import { useQuery } from "@apollo/client/react";
import "@web/ui/toolbars.css";
import "./audit.css";
import { AnchorButton, Classes, FormGroup, InputGroup, Intent, NonIdealState } from "@blueprintjs/core";
import { Download, History } from "@blueprintjs/icons";
import { appendPage, formatDateTime } from "@web/features/documents/documents";
import { type AuditEntryFieldsFragment, AuditLogDocument } from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { DateRangeFields } from "@web/ui/DateRangeFields";
import { FilterBar, SelectField } from "@web/ui/FilterFields";
import { useDebounced } from "@web/ui/hooks";
import { KeysetList, useLoadMore } from "@web/ui/KeysetList";
import { ClearFiltersButton, RefreshButton } from "@web/ui/ToolbarButtons";
import { type ReactNode, useId, useState } from "react";
import {
  ACTION_AREAS,
  AUDIT_PAGE_SIZE,
  type AuditFilterForm,
  actorLabel,
  auditExportHref,
  auditFilterProblems,
  auditFilterVariables,
  COMPACT_PAGE_SIZE,
  describeChange,
  EMPTY_AUDIT_FILTER,
  isAuditFiltered,
  targetLabel,
} from "./auditTrail";

/** Props of the audit trail. */
export interface AuditTrailProps {
  /** only entries acting on this user (the user drawer's tab) */
  targetUserId?: number;
  /** only entries by this user */
  actorId?: number;
  /** a short table without filters or export (inside a drawer) */
  compact?: boolean;
}

/**
 * The audit log as a dense table, newest first, in cursor pages ("Load more"): time, actor, action,
 * target, the change (before → after), the address and the request id. Unless compact: filters
 * (area, action, actor, target user, dates) and a CSV export of the filtered entries.
 */
export function AuditTrail({ targetUserId, actorId, compact = false }: AuditTrailProps) {
  const ids = { area: useId(), action: useId(), actor: useId(), target: useId(), from: useId(), to: useId() };
  const [form, setForm] = useState<AuditFilterForm>(EMPTY_AUDIT_FILTER);
  const settled = useDebounced(form);
  const filter = auditFilterVariables(compact ? EMPTY_AUDIT_FILTER : settled, { targetUserId, actorId });
  const problems = auditFilterProblems(form);
  const first = compact ? COMPACT_PAGE_SIZE : AUDIT_PAGE_SIZE;
  const set = (key: keyof AuditFilterForm, value: string) =>
    setForm((earlier) => ({ ...earlier, [key]: value }));

  const { data, loading, error, refetch, fetchMore } = useQuery(AuditLogDocument, {
    variables: { filter, first },
    skip: filter === null,
    fetchPolicy: "cache-and-network",
    notifyOnNetworkStatusChange: true,
  });
  const page = filter === null ? undefined : data?.auditLog;
  const entries = page?.nodes ?? [];

  const handleRefresh = () => {
    void refetch().catch(() => undefined);
  };
  const more = useLoadMore("More audit entries could not be loaded");
  const handleLoadMore = () => {
    if (!page?.endCursor || filter === null) return;
    const after = page.endCursor;
    void more.load(() =>
      fetchMore({
        variables: { filter, first, after },
        updateQuery: (earlier, { fetchMoreResult }) => ({
          auditLog: appendPage(earlier.auditLog, fetchMoreResult.auditLog),
        }),
      }),
    );
  };

  const filtered = !compact && isAuditFiltered(form);
  return (
    <div className={compact ? "audit-trail audit-trail-compact" : "audit-trail"}>
      {compact ? null : (
        <FilterBar className="audit-filters" label="Filter the audit log">
          <SelectField
            label="Area"
            id={ids.area}
            inline
            value={form.area}
            onChange={(value) => set("area", value)}
            options={[{ value: "", label: "Every area" }, ...ACTION_AREAS]}
          />
          <Field id={ids.action} label="Action contains" problem={problems.action}>
            <InputGroup
              id={ids.action}
              type="search"
              placeholder="e.g. type_changed"
              value={form.action}
              intent={problems.action ? Intent.DANGER : Intent.NONE}
              onChange={(e) => set("action", e.currentTarget.value)}
            />
          </Field>
          {(
            [
              ["actorId", ids.actor, "Actor (user id)", actorId],
              ["targetUserId", ids.target, "Target (user id)", targetUserId],
            ] as const
          ).map(([name, id, label, fixed]) =>
            fixed === undefined ? (
              <UserIdField
                key={name}
                id={id}
                label={label}
                value={form[name]}
                problem={problems[name]}
                onChange={(value) => set(name, value)}
              />
            ) : null,
          )}
          <DateRangeFields
            ids={ids}
            from={form.from}
            to={form.to}
            problem={problems.to}
            inline
            onChange={set}
          />
          <ClearFiltersButton disabled={!filtered} onClick={() => setForm(EMPTY_AUDIT_FILTER)} />
        </FilterBar>
      )}
      <div className="audit-toolbar">
        <span aria-live="polite">
          {page
            ? `${entries.length} ${entries.length === 1 ? "entry" : "entries"} shown${page.hasNextPage ? ", more to load" : ""}`
            : ""}
        </span>
        <span className="audit-toolbar-actions">
          <RefreshButton
            loading={loading && Boolean(page)}
            disabled={filter === null}
            onClick={handleRefresh}
          />
          {compact || filter === null ? null : (
            <AnchorButton
              size="small"
              icon={<Download />}
              text="Export CSV"
              href={auditExportHref(filter)}
              download
            />
          )}
        </span>
      </div>
      <KeysetList
        error={page ? undefined : error}
        errorTitle="The audit log could not be loaded"
        onRetry={handleRefresh}
        idle={filter === null}
        loading={!page}
        loadingLabel="Loading the audit log"
        rows={entries}
        empty={
          <NonIdealState
            icon={<History />}
            title="No audit entries"
            description={
              filtered
                ? "No entry matches these filters."
                : "Nothing has been recorded here yet. Sign-ins and administrators' changes appear as they happen."
            }
          />
        }
        more={
          page?.hasNextPage
            ? {
                className: "audit-load-more",
                text: "Load more",
                loading: more.loading,
                onClick: handleLoadMore,
              }
            : null
        }
      >
        {(rows) => <AuditTable entries={rows} compact={compact} />}
      </KeysetList>
    </div>
  );
}

/** A labelled filter with its problem shown under it. */
/** Props of {@link UserIdField}. */
interface UserIdFieldProps {
  id: string;
  label: string;
  value: string;
  problem?: string;
  onChange(value: string): void;
}

/** A filter's user id, typed as digits. */
function UserIdField({ id, label, value, problem, onChange }: UserIdFieldProps) {
  return (
    <Field id={id} label={label} problem={problem}>
      <InputGroup
        id={id}
        inputMode="numeric"
        className="audit-id-input"
        value={value}
        intent={problem ? Intent.DANGER : Intent.NONE}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </Field>
  );
}

function Field({
  id,
  label,
  problem,
  children,
}: {
  id: string;
  label: string;
  problem?: string;
  children: ReactNode;
}) {
  return (
    <FormGroup
      label={label}
      labelFor={id}
      inline
      intent={problem ? Intent.DANGER : Intent.NONE}
      helperText={problem}
    >
      {children}
    </FormGroup>
  );
}

/** Props of the audit table. */
export interface AuditTableProps {
  entries: readonly AuditEntryFieldsFragment[];
  compact?: boolean;
}

/** The entries as a dense table (scrolls sideways inside its box on a narrow screen). */
export function AuditTable({ entries, compact = false }: AuditTableProps) {
  return (
    <DataTable
      scrollClassName="audit-table-scroll"
      region="Audit entries"
      className="audit-table"
      label="Audit entries"
      columns={["Time", "Actor", "Action", "Target", "Change", "Address", "Request id"]}
      rows={entries}
    >
      {(e) => (
        <tr key={e.id}>
          <td className="audit-nowrap">{formatDateTime(String(e.createdAt))}</td>
          <td>
            {actorLabel(e)}
            {e.actorId && e.actorName ? <div className={Classes.TEXT_MUTED}>#{e.actorId}</div> : null}
          </td>
          <td className="audit-action">{e.action}</td>
          <td>{targetLabel(e)}</td>
          <td className="audit-change">{describeChange(e.before, e.after)}</td>
          <td className="audit-nowrap">{e.ip ?? ""}</td>
          <td className={compact ? "audit-request audit-request-compact" : "audit-request"}>
            {e.requestId ?? ""}
          </td>
        </tr>
      )}
    </DataTable>
  );
}
