import { useMutation } from "@apollo/client/react";
import { Button, ButtonGroup, Classes, H2, Intent, NonIdealState, Spinner } from "@blueprintjs/core";
import { Disable, Edit, Key, Link, Play, Plus, Satellite } from "@blueprintjs/icons";
import {
  EsrtDeliveriesDocument,
  type EsrtEndpointFieldsFragment,
  EsrtSyncOverviewDocument,
  SendEsrtTestEventDocument,
  SetEsrtEndpointEnabledDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { CellText } from "@web/ui/CellText";
import { DataTable } from "@web/ui/DataTable";
import { LoadError } from "@web/ui/LoadError";
import { useState } from "react";
import { type EndpointAction, EndpointDialog } from "./EndpointDialogs";
import { HealthTag } from "./EsrtParts";
import { formatAgo, formatInstant, readAnswer, thrownMessage } from "./esrtSync";

/** Props of the endpoints section. */
export interface EndpointsProps {
  endpoints: readonly EsrtEndpointFieldsFragment[] | undefined;
  loading: boolean;
  error: Error | undefined;
  onRetry(): void;
}

/**
 * The Pro app's webhook endpoints: URL, description, health, failures, last success and failure;
 * add (the secret shown once), edit, enable or disable, send a test event, rotate the secret.
 */
export function Endpoints({ endpoints, loading, error, onRetry }: EndpointsProps) {
  const [action, setAction] = useState<EndpointAction | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [sendTest] = useMutation(SendEsrtTestEventDocument, { refetchQueries: [EsrtDeliveriesDocument] });
  const [setEnabled] = useMutation(SetEsrtEndpointEnabledDocument, {
    refetchQueries: [EsrtSyncOverviewDocument, EsrtDeliveriesDocument],
  });

  const handleTest = async (endpoint: EsrtEndpointFieldsFragment) => {
    setBusyId(endpoint.id);
    try {
      const result = await sendTest({ variables: { endpointId: endpoint.id } });
      const outcome = readAnswer(result.data?.sendEsrtTestEvent, "The test event could not be sent");
      if (outcome.ok) {
        showToast({
          title: "Test event queued",
          description: `Delivery ${outcome.data.id} to ${endpoint.url}: follow it in the delivery log.`,
          intent: Intent.SUCCESS,
        });
      } else {
        showToast({
          title: "The test event could not be sent",
          description: outcome.message,
          intent: "destructive",
        });
      }
    } catch (caught) {
      showToast({
        title: "The test event could not be sent",
        description: thrownMessage(caught, "Please try again"),
        intent: "destructive",
      });
    } finally {
      setBusyId(null);
    }
  };

  const handleEnable = async (endpoint: EsrtEndpointFieldsFragment) => {
    setBusyId(endpoint.id);
    try {
      const result = await setEnabled({ variables: { id: endpoint.id, enabled: true } });
      const outcome = readAnswer(result.data?.setEsrtEndpointEnabled, "The endpoint could not be enabled");
      if (outcome.ok) {
        showToast({
          title: "Endpoint enabled",
          description:
            endpoint.health === "paused" || endpoint.health === "disabled"
              ? "Deliveries resume with each user's latest version."
              : endpoint.url,
          intent: Intent.SUCCESS,
        });
      } else {
        showToast({
          title: "The endpoint could not be enabled",
          description: outcome.message,
          intent: "destructive",
        });
      }
    } catch (caught) {
      showToast({
        title: "The endpoint could not be enabled",
        description: thrownMessage(caught, "Please try again"),
        intent: "destructive",
      });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <section className="esrt-endpoints" aria-labelledby="esrt-endpoints-heading">
      <div className="esrt-section-head">
        <H2 id="esrt-endpoints-heading">Endpoints</H2>
        <Button
          intent={Intent.PRIMARY}
          icon={<Plus />}
          text="Add endpoint"
          onClick={() => setAction({ kind: "add" })}
        />
      </div>
      {error && !endpoints ? (
        <LoadError title="The endpoints could not be loaded" error={error} onRetry={onRetry} />
      ) : !endpoints ? (
        loading ? (
          <Spinner size={24} aria-label="Loading the endpoints" />
        ) : null
      ) : endpoints.length === 0 ? (
        <NonIdealState
          icon={<Link />}
          title="No webhook endpoint"
          description="Add the Pro app's webhook URL to send it each user's changes. NATS delivery needs no endpoint."
          action={<Button icon={<Plus />} text="Add endpoint" onClick={() => setAction({ kind: "add" })} />}
        />
      ) : (
        <DataTable
          scrollClassName="esrt-table-scroll"
          className="esrt-table"
          label="Webhook endpoints"
          striped
          columns={["URL", "Health", "Failures", "Last success", "Last failure", "Secret", "Actions"]}
          rows={endpoints}
        >
          {(e) => (
            <tr key={e.id} data-endpoint-id={e.id}>
              <td className="esrt-url">
                <CellText width="wide">{e.url}</CellText>
                {e.description ? <div className={Classes.TEXT_MUTED}>{e.description}</div> : null}
              </td>
              <td>
                <HealthTag health={e.health} />
                {e.disabledReason ? <div className={Classes.TEXT_MUTED}>{e.disabledReason}</div> : null}
              </td>
              <td>
                {e.consecutiveFailures}
                {e.failingSince ? (
                  <div className={Classes.TEXT_MUTED}>
                    since {formatAgo(e.failingSince).replace(/ ago$/, "")}
                  </div>
                ) : null}
                {e.waitingDeliveries > 0 ? (
                  <div className={Classes.TEXT_MUTED}>{e.waitingDeliveries} waiting</div>
                ) : null}
              </td>
              <td>{formatInstant(e.lastSuccessAt)}</td>
              <td>{formatInstant(e.lastFailureAt)}</td>
              <td>
                {e.secretRotatedAt ? `Rotated ${formatInstant(e.secretRotatedAt)}` : "Original"}
                {e.previousSecretExpiresAt && new Date(e.previousSecretExpiresAt).getTime() > Date.now() ? (
                  <div className={Classes.TEXT_MUTED}>
                    old one signs until {formatInstant(e.previousSecretExpiresAt)}
                  </div>
                ) : null}
              </td>
              <td>
                <ButtonGroup variant="minimal" size="small" className="esrt-row-actions">
                  <Button
                    icon={<Edit />}
                    text="Edit…"
                    aria-label={`Edit ${e.url}`}
                    onClick={() => setAction({ kind: "edit", endpoint: e })}
                  />
                  <Button
                    icon={<Satellite />}
                    text="Send test event"
                    aria-label={`Send test event to ${e.url}`}
                    disabled={!e.enabled}
                    loading={busyId === e.id}
                    onClick={() => void handleTest(e)}
                  />
                  <Button
                    icon={<Key />}
                    text="Rotate secret…"
                    aria-label={`Rotate secret of ${e.url}`}
                    onClick={() => setAction({ kind: "rotate", endpoint: e })}
                  />
                  {e.enabled && e.health !== "paused" ? (
                    <Button
                      icon={<Disable />}
                      intent={Intent.DANGER}
                      text="Disable…"
                      aria-label={`Disable ${e.url}`}
                      onClick={() => setAction({ kind: "disable", endpoint: e })}
                    />
                  ) : (
                    <Button
                      icon={<Play />}
                      intent={Intent.SUCCESS}
                      text={e.health === "paused" ? "Resume" : "Enable"}
                      aria-label={`${e.health === "paused" ? "Resume" : "Enable"} ${e.url}`}
                      loading={busyId === e.id}
                      onClick={() => void handleEnable(e)}
                    />
                  )}
                </ButtonGroup>
              </td>
            </tr>
          )}
        </DataTable>
      )}
      {action ? <EndpointDialog action={action} onClose={() => setAction(null)} /> : null}
    </section>
  );
}
