import { useQuery } from "@apollo/client/react";
import { Button, Callout, Classes, Drawer, H5, Intent, NonIdealState, Spinner, Tag } from "@blueprintjs/core";
import { Repeat } from "@blueprintjs/icons";
import { EsrtDeliveryDocument, type EsrtDeliveryRowFieldsFragment } from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { LoadError } from "@web/ui/LoadError";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { DeliveryStatusTag } from "./EsrtParts";
import {
  attemptOutcome,
  CHANNEL_LABELS,
  canRedeliver,
  deliveryUserLabel,
  formatInstant,
  formatLatency,
  payloadText,
  statusCodeIntent,
} from "./esrtSync";

/** Props of the delivery panel. */
export interface DeliveryPanelProps {
  /** the delivery shown; null keeps the drawer closed */
  deliveryId: number | null;
  onRedeliver(delivery: EsrtDeliveryRowFieldsFragment): void;
  onClose(): void;
}

/**
 * The selected delivery in a drawer beside the log (Escape closes it and focus returns to its row):
 * where it went, its status, every attempt (time, status code, latency, the start of the answer)
 * and the payload, with Redeliver for delivered and dead ones.
 */
export function DeliveryPanel({ deliveryId, onRedeliver, onClose }: DeliveryPanelProps) {
  return (
    <Drawer
      isOpen={deliveryId !== null}
      onClose={onClose}
      title={deliveryId === null ? "Delivery" : `Delivery ${deliveryId}`}
      size="min(560px, 100vw)"
      className="esrt-drawer"
    >
      <div className={`${Classes.DRAWER_BODY} esrt-panel`} data-delivery-id={deliveryId ?? undefined}>
        {deliveryId === null ? null : <DeliveryDetail id={deliveryId} onRedeliver={onRedeliver} />}
      </div>
    </Drawer>
  );
}

function DeliveryDetail({
  id,
  onRedeliver,
}: {
  id: number;
  onRedeliver(delivery: EsrtDeliveryRowFieldsFragment): void;
}) {
  const { data, loading, error, refetch } = useQuery(EsrtDeliveryDocument, {
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const d = data?.esrtDelivery;
  if (error && !data) {
    return (
      <LoadError
        title="The delivery could not be loaded"
        error={error}
        onRetry={() => void refetch().catch(() => undefined)}
      />
    );
  }
  if (loading && !d) return <Spinner size={24} aria-label="Loading the delivery" />;
  if (!d)
    return <NonIdealState title="Delivery not found" description={`Delivery ${id} no longer exists.`} />;
  return (
    <>
      <div className="esrt-panel-head">
        <DeliveryStatusTag status={d.status} />
        <span className={Classes.TEXT_MUTED}>
          {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`}
        </span>
      </div>
      <dl className="esrt-facts">
        <dt>User</dt>
        <dd>
          {deliveryUserLabel(d)}
          {d.version != null ? ` · version ${d.version}` : ""}
        </dd>
        <dt>Channel</dt>
        <dd className="esrt-url">
          {CHANNEL_LABELS[d.channel]}
          {d.endpointUrl ? ` · ${d.endpointUrl}` : ""}
        </dd>
        <dt>Event</dt>
        <dd>{d.eventType}</dd>
        <dt>Message id</dt>
        <dd>
          <code className="esrt-code">{d.messageId}</code>
        </dd>
        <dt>Created</dt>
        <dd>{formatInstant(d.createdAt)}</dd>
        <dt>Delivered</dt>
        <dd>{formatInstant(d.deliveredAt, "Not yet")}</dd>
        {d.nextAttemptAt && (d.status === "pending" || d.status === "sending") ? (
          <>
            <dt>Next attempt</dt>
            <dd>{formatInstant(d.nextAttemptAt)}</dd>
          </>
        ) : null}
      </dl>
      {d.status === "dead" ? (
        <Callout intent={Intent.DANGER} compact>
          No attempts left{d.lastError ? `: ${d.lastError}` : ""}.
        </Callout>
      ) : null}
      {canRedeliver(d.status) ? (
        <Button
          icon={<Repeat />}
          text="Redeliver…"
          className="esrt-panel-action"
          onClick={() => onRedeliver(d)}
        />
      ) : null}
      <H5 className="esrt-panel-subtitle">Attempts ({d.attemptLog.length})</H5>
      {d.attemptLog.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>No attempt yet.</p>
      ) : (
        <DataTable
          scrollClassName="esrt-table-scroll"
          region="Attempts"
          className="esrt-table esrt-attempts"
          label={`Attempts of delivery ${d.id}`}
          columns={["#", "Time", "Answer", "Latency"]}
          rows={d.attemptLog}
        >
          {(a) => (
            <tr key={a.attempt}>
              <td>{a.attempt}</td>
              <td>{formatInstant(a.startedAt)}</td>
              <td className="esrt-wrap">
                <Tag minimal intent={statusCodeIntent(a.statusCode)}>
                  {attemptOutcome(a)}
                </Tag>
                {a.statusCode != null && a.error ? <div>{a.error}</div> : null}
                {a.responseSnippet ? <pre className="esrt-snippet">{a.responseSnippet}</pre> : null}
              </td>
              <td>{formatLatency(a.latencyMs)}</td>
            </tr>
          )}
        </DataTable>
      )}
      <H5 className="esrt-panel-subtitle">Payload</H5>
      <ScrollRegion className="esrt-payload" label={`Payload of delivery ${d.id}`}>
        <pre>{payloadText(d.payload)}</pre>
      </ScrollRegion>
    </>
  );
}
