import "@web/ui/toolbars.css";
import { useQuery } from "@apollo/client/react";
import { Button, ButtonGroup, Checkbox, Classes, H2, Intent, NonIdealState } from "@blueprintjs/core";
import { History, Inbox, Repeat, Updated } from "@blueprintjs/icons";
import { appendPage } from "@web/features/documents/documents";
import {
  type EsrtChannel,
  EsrtDeliveriesDocument,
  type EsrtDeliveryRowFieldsFragment,
  type EsrtEndpointFieldsFragment,
} from "@web/generated/graphql";
import { CellText } from "@web/ui/CellText";
import { DataTable } from "@web/ui/DataTable";
import { DateRangeFields } from "@web/ui/DateRangeFields";
import { FilterBar, SearchField, SelectField } from "@web/ui/FilterFields";
import { useDebounced } from "@web/ui/hooks";
import { KeysetList, useLoadMore } from "@web/ui/KeysetList";
import { ClearFiltersButton, RefreshButton } from "@web/ui/ToolbarButtons";
import { useId, useMemo, useState } from "react";
import { type SyncAction, SyncActionDialog } from "./DeliveryDialogs";
import { DeliveryPanel } from "./DeliveryPanel";
import { DeliveryStatusTag } from "./EsrtParts";
import {
  CHANNEL_LABELS,
  canRedeliver,
  DELIVERY_STATUS_TAGS,
  DELIVERY_STATUSES,
  type DeliveryFilterForm,
  deliveryFilterVariables,
  deliveryTarget,
  EMPTY_DELIVERY_FILTER,
  formatAgo,
  formatInstant,
  isFiltered,
  toggleStatus,
} from "./esrtSync";

/** Props of the delivery log. */
export interface DeliveryLogProps {
  /** the webhook endpoints, for the endpoint filter */
  endpoints: readonly EsrtEndpointFieldsFragment[];
  /** whether a resync job is queued or running (Resync all waits for it) */
  jobRunning: boolean;
  /** after an action that queued deliveries or a job: refresh what depends on it */
  onChanged(): void;
}

/**
 * The delivery log: filters (status, channel, endpoint, user, days), newest first in pages of 25
 * with "Load more", the selected delivery's attempts and payload beside the list, Redeliver, and the
 * page's bulk actions (replay failed deliveries, resync one user, resync all).
 */
export function DeliveryLog({ endpoints, jobRunning, onChanged }: DeliveryLogProps) {
  const ids = { user: useId(), channel: useId(), endpoint: useId(), from: useId(), to: useId() };
  const [form, setForm] = useState<DeliveryFilterForm>(EMPTY_DELIVERY_FILTER);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [action, setAction] = useState<SyncAction | null>(null);
  const user = useDebounced(form.user);
  const filter = deliveryFilterVariables({ ...form, user });
  const set = <K extends keyof DeliveryFilterForm>(key: K, value: DeliveryFilterForm[K]) =>
    setForm((earlier) => ({ ...earlier, [key]: value }));

  const { data, loading, error, refetch, fetchMore } = useQuery(EsrtDeliveriesDocument, {
    variables: { filter },
    skip: filter === null,
    fetchPolicy: "cache-and-network",
  });
  const page = filter === null ? undefined : data?.esrtDeliveries;
  const shown = useMemo(() => page?.nodes ?? [], [page]);
  const selected = shown.find((d) => d.id === selectedId) ?? null;

  const handleRefresh = () => {
    void refetch().catch(() => undefined);
  };
  const handleChanged = () => {
    handleRefresh();
    onChanged();
  };

  const more = useLoadMore("More deliveries could not be loaded");
  const handleLoadMore = () => {
    if (!page?.endCursor || filter === null) return;
    const after = page.endCursor;
    void more.load(() =>
      fetchMore({
        variables: { filter: { ...filter, after } },
        updateQuery: (earlier, { fetchMoreResult }) => ({
          esrtDeliveries: appendPage(earlier.esrtDeliveries, fetchMoreResult.esrtDeliveries),
        }),
      }),
    );
  };

  const rangeProblem = filter === null ? "The From date must be on or before the To date" : undefined;

  return (
    <section className="esrt-log" aria-labelledby="esrt-log-heading">
      <div className="esrt-section-head">
        <H2 id="esrt-log-heading">Delivery log</H2>
        <ButtonGroup className="esrt-actions">
          <Button
            icon={<History />}
            text="Replay failed since…"
            onClick={() => setAction({ kind: "replay" })}
          />
          <Button icon={<Repeat />} text="Resync user…" onClick={() => setAction({ kind: "resyncUser" })} />
          <Button
            icon={<Updated />}
            text="Resync all…"
            intent={Intent.WARNING}
            disabled={jobRunning}
            title={jobRunning ? "A resync job is already running" : undefined}
            onClick={() => setAction({ kind: "resyncAll" })}
          />
        </ButtonGroup>
      </div>
      <FilterBar className="esrt-filters" label="Filter deliveries">
        <fieldset className="esrt-status-filter">
          <legend>Status</legend>
          {DELIVERY_STATUSES.map((s) => (
            <Checkbox
              key={s}
              inline
              label={DELIVERY_STATUS_TAGS[s].text}
              checked={form.statuses.includes(s)}
              onChange={(e) => set("statuses", toggleStatus(form.statuses, s, e.currentTarget.checked))}
            />
          ))}
        </fieldset>
        <SearchField
          label="User"
          id={ids.user}
          inline
          icon
          placeholder="Unique id, name or email"
          value={form.user}
          onChange={(value) => set("user", value)}
        />
        <SelectField
          label="Channel"
          id={ids.channel}
          inline
          value={form.channel}
          onChange={(value) => set("channel", value as EsrtChannel | "")}
          options={[
            { value: "", label: "Any" },
            ...(Object.keys(CHANNEL_LABELS) as EsrtChannel[]).map((c) => ({
              value: c,
              label: CHANNEL_LABELS[c],
            })),
          ]}
        />
        <SelectField
          label="Endpoint"
          id={ids.endpoint}
          inline
          value={form.endpointId}
          onChange={(value) => set("endpointId", value)}
          options={[
            { value: "", label: "Any" },
            ...endpoints.map((e) => ({ value: String(e.id), label: e.description || e.url })),
          ]}
        />
        <DateRangeFields
          ids={ids}
          from={form.from}
          to={form.to}
          problem={rangeProblem}
          inline
          onChange={set}
        />
        <ClearFiltersButton disabled={!isFiltered(form)} onClick={() => setForm(EMPTY_DELIVERY_FILTER)} />
      </FilterBar>
      <div className="esrt-toolbar" aria-live="polite">
        <span>{page ? `${shown.length} of ${page.totalCount} shown` : ""}</span>
        <RefreshButton
          loading={loading && Boolean(page)}
          disabled={filter === null}
          onClick={handleRefresh}
        />
      </div>
      <div className="esrt-log-list">
        <KeysetList
          error={page ? undefined : error}
          errorTitle="Deliveries could not be loaded"
          onRetry={handleRefresh}
          loading={loading && !page && filter !== null}
          loadingLabel="Loading deliveries"
          rows={shown}
          empty={
            <NonIdealState
              icon={<Inbox />}
              title="No deliveries"
              description={
                isFiltered(form)
                  ? "No delivery matches these filters."
                  : "Nothing has been sent to the Pro app yet. Deliveries appear here when users change."
              }
            />
          }
          more={
            page?.hasNextPage
              ? {
                  className: "esrt-load-more",
                  text: "Load more",
                  loading: more.loading,
                  onClick: handleLoadMore,
                }
              : null
          }
        >
          {(rows) => (
            <DeliveryTable
              deliveries={rows}
              selectedId={selected?.id ?? null}
              onSelect={setSelectedId}
              onRedeliver={(delivery) => setAction({ kind: "redeliver", delivery })}
            />
          )}
        </KeysetList>
      </div>
      <DeliveryPanel
        deliveryId={selectedId}
        onRedeliver={(delivery) => setAction({ kind: "redeliver", delivery })}
        onClose={() => setSelectedId(null)}
      />
      {action ? (
        <SyncActionDialog
          action={action}
          endpoints={endpoints}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            handleChanged();
          }}
        />
      ) : null}
    </section>
  );
}

/** Props of the deliveries' table. */
interface DeliveryTableProps {
  deliveries: readonly EsrtDeliveryRowFieldsFragment[];
  selectedId: number | null;
  onSelect(id: number): void;
  onRedeliver(delivery: EsrtDeliveryRowFieldsFragment): void;
}

function DeliveryTable({ deliveries, selectedId, onSelect, onRedeliver }: DeliveryTableProps) {
  return (
    <DataTable
      scrollClassName="esrt-table-scroll"
      className="esrt-table esrt-log-table"
      label="Deliveries"
      striped
      columns={["Created", "User", "To", "Status", "Attempts", "Last answer"]}
      actions
      rows={deliveries}
    >
      {(d) => {
        const current = d.id === selectedId;
        return (
          <tr
            key={d.id}
            data-delivery-id={d.id}
            className={current ? "esrt-row-current" : undefined}
            onClick={() => onSelect(d.id)}
          >
            <td>
              <Button
                variant="minimal"
                size="small"
                className="esrt-open"
                text={formatInstant(d.createdAt)}
                aria-label={`Delivery ${d.id}, ${formatInstant(d.createdAt)}: show attempts and payload`}
                aria-pressed={current}
                active={current}
                onClick={(e) => {
                  e.stopPropagation();
                  onSelect(d.id);
                }}
              />
            </td>
            <td className="esrt-user">
              {d.userName?.trim() || (d.eventType === "endpoint.test" ? "Test event" : "—")}
              <div className={Classes.TEXT_MUTED}>
                {d.uniqueId ?? d.eventType}
                {d.version != null ? ` · v${d.version}` : ""}
              </div>
            </td>
            <td className="esrt-url">
              <CellText width="wide">{deliveryTarget(d)}</CellText>
              {d.channel === "webhook" ? null : <div className={Classes.TEXT_MUTED}>{d.eventType}</div>}
            </td>
            <td>
              <DeliveryStatusTag status={d.status} />
            </td>
            <td>
              {d.attempts}
              {d.nextAttemptAt && (d.status === "pending" || d.status === "sending") ? (
                <div className={Classes.TEXT_MUTED}>next {formatAgo(d.nextAttemptAt)}</div>
              ) : null}
            </td>
            <td className="esrt-wrap">
              {d.lastStatusCode ?? (d.lastError ? "" : "—")}
              {d.lastError ? <div className={Classes.TEXT_MUTED}>{d.lastError}</div> : null}
            </td>
            <td>
              {canRedeliver(d.status) ? (
                <Button
                  variant="minimal"
                  size="small"
                  text="Redeliver…"
                  aria-label={`Redeliver delivery ${d.id}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    onRedeliver(d);
                  }}
                />
              ) : null}
            </td>
          </tr>
        );
      }}
    </DataTable>
  );
}
