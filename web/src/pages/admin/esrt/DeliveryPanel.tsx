import {
  Button,
  Callout,
  Card,
  Classes,
  H3,
  H4,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { Cross, Exchange, Repeat } from "@blueprintjs/icons";
import { type EsrtDeliveryRowFieldsFragment, useEsrtDeliveryQuery } from "../../../generated/graphql";
import { DeliveryStatusTag, LoadError, ScrollRegion } from "./EsrtParts";
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
  deliveryId: number | null;
  onRedeliver(delivery: EsrtDeliveryRowFieldsFragment): void;
  onClose(): void;
}

/**
 * The selected delivery beside the log: where it went, its status, every attempt (time, status
 * code, latency, the start of the answer) and the payload, with Redeliver for delivered and dead
 * ones.
 */
export function DeliveryPanel({ deliveryId, onRedeliver, onClose }: DeliveryPanelProps) {
  const { data, loading, error, refetch } = useEsrtDeliveryQuery({
    variables: { id: deliveryId ?? 0 },
    skip: deliveryId === null,
    fetchPolicy: "cache-and-network",
  });
  if (deliveryId === null) {
    return (
      <Card compact className="esrt-panel" role="region" aria-label="Selected delivery">
        <NonIdealState
          icon={<Exchange />}
          title="No delivery selected"
          description="Choose a delivery in the log to see its attempts and payload."
        />
      </Card>
    );
  }
  const d = data?.esrtDelivery;
  return (
    <Card
      compact
      className="esrt-panel"
      role="region"
      aria-label="Selected delivery"
      data-delivery-id={deliveryId}
    >
      {error && !data ? (
        <LoadError
          title="The delivery could not be loaded"
          error={error}
          onRetry={() => void refetch().catch(() => undefined)}
        />
      ) : loading && !d ? (
        <Spinner size={24} aria-label="Loading the delivery" />
      ) : !d ? (
        <NonIdealState title="Delivery not found" description={`Delivery ${deliveryId} no longer exists.`} />
      ) : (
        <>
          <div className="esrt-panel-head">
            <H3 className="esrt-panel-title">Delivery {d.id}</H3>
            <DeliveryStatusTag status={d.status} />
            <Button
              variant="minimal"
              size="small"
              icon={<Cross />}
              aria-label="Close the delivery"
              className="esrt-panel-close"
              onClick={onClose}
            />
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
          <H4 className="esrt-panel-subtitle">Attempts ({d.attemptLog.length})</H4>
          {d.attemptLog.length === 0 ? (
            <p className={Classes.TEXT_MUTED}>No attempt yet.</p>
          ) : (
            <ScrollRegion className="esrt-table-scroll" label="Attempts">
              <HTMLTable
                compact
                className="esrt-table esrt-attempts"
                aria-label={`Attempts of delivery ${d.id}`}
              >
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Time</th>
                    <th scope="col">Answer</th>
                    <th scope="col">Latency</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attemptLog.map((a) => (
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
                  ))}
                </tbody>
              </HTMLTable>
            </ScrollRegion>
          )}
          <H4 className="esrt-panel-subtitle">Payload</H4>
          <ScrollRegion className="esrt-payload" label={`Payload of delivery ${d.id}`}>
            <pre>{payloadText(d.payload)}</pre>
          </ScrollRegion>
        </>
      )}
    </Card>
  );
}
