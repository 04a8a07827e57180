import { useMutation } from "@apollo/client/react";
import { FormGroup, HTMLSelect, InputGroup, Intent } from "@blueprintjs/core";
import {
  EsrtDeliveriesDocument,
  EsrtDeliveryDocument,
  type EsrtDeliveryRowFieldsFragment,
  type EsrtEndpointFieldsFragment,
  EsrtJobsDocument,
  EsrtSyncOverviewDocument,
  RedeliverEsrtDeliveryDocument,
  ReplayFailedEsrtDeliveriesDocument,
  ResyncAllEsrtUsersDocument,
  ResyncEsrtUserDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { FormDialog } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { useId, useState } from "react";
import { AnswerConfirmDialog } from "./AnswerConfirmDialog";
import {
  deliveryTarget,
  deliveryUserLabel,
  ESRT_FORM_MESSAGES,
  firstIssue,
  isoToLocalDateTime,
  localDateTimeToIso,
  plural,
  readAnswer,
  resyncUserFormSchema,
  thrownMessage,
  useAnswerProblem,
} from "./esrtSync";

/** An action of the delivery log that asks first. */
export type SyncAction =
  | { kind: "redeliver"; delivery: EsrtDeliveryRowFieldsFragment }
  | { kind: "replay" }
  | { kind: "resyncUser" }
  | { kind: "resyncAll" };

/** Props of the delivery log's dialogs. */
export interface SyncActionDialogProps {
  action: SyncAction;
  endpoints: readonly EsrtEndpointFieldsFragment[];
  onClose(): void;
  /** the action went through (its toast has been shown) */
  onDone(): void;
}

/** The dialog of one of the delivery log's actions. Mount it only while it is open. */
export function SyncActionDialog({ action, endpoints, onClose, onDone }: SyncActionDialogProps) {
  switch (action.kind) {
    case "redeliver":
      return <RedeliverDialog delivery={action.delivery} onClose={onClose} onDone={onDone} />;
    case "replay":
      return <ReplayDialog endpoints={endpoints} onClose={onClose} onDone={onDone} />;
    case "resyncUser":
      return <ResyncUserDialog onClose={onClose} onDone={onDone} />;
    case "resyncAll":
      return <ResyncAllDialog onClose={onClose} onDone={onDone} />;
  }
}

interface StepProps {
  onClose(): void;
  onDone(): void;
}

const AFTER_SENDING = {
  refetchQueries: [EsrtDeliveriesDocument, EsrtSyncOverviewDocument],
};

function RedeliverDialog({
  delivery,
  onClose,
  onDone,
}: StepProps & { delivery: EsrtDeliveryRowFieldsFragment }) {
  const [redeliver, state] = useMutation(RedeliverEsrtDeliveryDocument, {
    refetchQueries: [EsrtDeliveriesDocument, EsrtDeliveryDocument, EsrtSyncOverviewDocument],
  });
  return (
    <AnswerConfirmDialog
      title={`Redeliver delivery ${delivery.id}?`}
      confirmText="Redeliver"
      loading={state.loading}
      failure={"The delivery could not be sent again"}
      send={async () => (await redeliver({ variables: { id: delivery.id } })).data?.redeliverEsrtDelivery}
      onDone={() => {
        showToast({
          title: "Delivery queued again",
          description: `Delivery ${delivery.id} to ${deliveryTarget(delivery)}`,
          intent: Intent.SUCCESS,
        });
        onDone();
      }}
      onClose={onClose}
    >
      <p>
        Sends{" "}
        {delivery.eventType === "endpoint.test"
          ? "the test event"
          : `${deliveryUserLabel(delivery)}'s snapshot`}
        {delivery.version != null ? ` (version ${delivery.version})` : ""} to {deliveryTarget(delivery)}{" "}
        again, with the same message id, so the Pro app can tell it is a repeat.
      </p>
      <p>The server refuses when the user has changed since: the newer version is sent instead.</p>
    </AnswerConfirmDialog>
  );
}

function ReplayDialog({
  endpoints,
  onClose,
  onDone,
}: StepProps & { endpoints: readonly EsrtEndpointFieldsFragment[] }) {
  useReturnFocus();
  const ids = { since: useId(), endpoint: useId() };
  const [since, setSince] = useState(() => isoToLocalDateTime(new Date(Date.now() - 24 * 3600 * 1000)));
  const [endpointId, setEndpointId] = useState("");
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [replay, state] = useMutation(ReplayFailedEsrtDeliveriesDocument, AFTER_SENDING);
  const sinceIso = localDateTimeToIso(since);
  const sinceProblem = !sinceIso
    ? ESRT_FORM_MESSAGES.sinceInvalid
    : new Date(sinceIso).getTime() > Date.now()
      ? ESRT_FORM_MESSAGES.sinceFuture
      : null;
  const shownProblem = touched ? sinceProblem : null;

  const handleSubmit = async () => {
    setTouched(true);
    setProblem(null);
    if (sinceProblem || !sinceIso) return;
    try {
      const result = await replay({
        variables: { since: sinceIso, endpointId: endpointId ? Number(endpointId) : null },
      });
      const outcome = readAnswer(
        result.data?.replayFailedEsrtDeliveries,
        "The failed deliveries could not be replayed",
      );
      if (!outcome.ok) {
        setProblem(outcome.message);
        return;
      }
      showToast({
        title:
          outcome.data === 0
            ? "Nothing to replay"
            : `${plural(outcome.data, "delivery", "deliveries")} queued again`,
        description:
          outcome.data === 0
            ? "Nothing failed since then that is still its user's latest version."
            : "They are sent now; dead ones start their retries over.",
        intent: outcome.data === 0 ? Intent.NONE : Intent.SUCCESS,
      });
      onDone();
    } catch (caught) {
      setProblem(thrownMessage(caught, "The failed deliveries could not be replayed"));
    }
  };

  return (
    <FormDialog
      label="Replay failed deliveries"
      submitText="Replay"
      busy={state.loading}
      problem={problem}
      onSubmit={() => void handleSubmit()}
      onClose={onClose}
    >
      <p>
        Sends now every delivery made since the time you choose that failed: the ones still being retried are
        tried at once, and dead ones that are still their user's latest version start their retries over (an
        older version would reach the Pro app after a newer one).
      </p>
      <FormGroup
        label="Since (your time zone)"
        labelFor={ids.since}
        intent={shownProblem ? Intent.DANGER : Intent.NONE}
        helperText={shownProblem ?? undefined}
      >
        <InputGroup
          id={ids.since}
          type="datetime-local"
          autoFocus
          value={since}
          intent={shownProblem ? Intent.DANGER : Intent.NONE}
          onChange={(e) => setSince(e.currentTarget.value)}
        />
      </FormGroup>
      <FormGroup
        label="Endpoint"
        labelFor={ids.endpoint}
        helperText="Optional: only this endpoint's deliveries"
      >
        <HTMLSelect
          id={ids.endpoint}
          value={endpointId}
          onChange={(e) => setEndpointId(e.currentTarget.value)}
          options={[
            { value: "", label: "Every channel and endpoint" },
            ...endpoints.map((e) => ({ value: String(e.id), label: e.description || e.url })),
          ]}
        />
      </FormGroup>
    </FormDialog>
  );
}

function ResyncUserDialog({ onClose, onDone }: StepProps) {
  useReturnFocus();
  const id = useId();
  const [uniqueId, setUniqueId] = useState("");
  const [touched, setTouched] = useState(false);
  const { problem, setProblem, run } = useAnswerProblem();
  const [resync, state] = useMutation(ResyncEsrtUserDocument, AFTER_SENDING);
  const parsed = resyncUserFormSchema.safeParse({ uniqueId });
  const fieldProblem = touched ? firstIssue(parsed) : null;

  const handleSubmit = async () => {
    setTouched(true);
    setProblem(null);
    if (!parsed.success) return;
    await run(
      "The user could not be resynced",
      async () => (await resync({ variables: { uniqueId: parsed.data.uniqueId } })).data?.resyncEsrtUser,
      (data) => {
        showToast({
          title: `${parsed.data.uniqueId} queued for the Pro app`,
          description: `${plural(data, "delivery", "deliveries")} of the latest snapshot`,
          intent: Intent.SUCCESS,
        });
        onDone();
      },
    );
  };

  return (
    <FormDialog
      label="Resync one user"
      submitText="Resync user"
      busy={state.loading}
      problem={problem}
      onSubmit={() => void handleSubmit()}
      onClose={onClose}
    >
      <p>Sends the user's latest snapshot again on every channel.</p>
      <FormGroup
        label="Unique id"
        labelFor={id}
        intent={fieldProblem ? Intent.DANGER : Intent.NONE}
        helperText={fieldProblem ?? "As on the user's console, such as ESRT-…"}
      >
        <InputGroup
          id={id}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          value={uniqueId}
          intent={fieldProblem ? Intent.DANGER : Intent.NONE}
          onChange={(e) => setUniqueId(e.currentTarget.value)}
        />
      </FormGroup>
    </FormDialog>
  );
}

function ResyncAllDialog({ onClose, onDone }: StepProps) {
  const [resyncAll, state] = useMutation(ResyncAllEsrtUsersDocument, { refetchQueries: [EsrtJobsDocument] });
  return (
    <AnswerConfirmDialog
      title="Resync every user?"
      confirmText="Resync all"
      intent={Intent.WARNING}
      loading={state.loading}
      failure={"Resync all could not be started"}
      send={async () => (await resyncAll()).data?.resyncAllEsrtUsers}
      onDone={() => {
        showToast({
          title: "Resync all started",
          description: "Its progress shows in the overview.",
          intent: Intent.SUCCESS,
        });
        onDone();
      }}
      onClose={onClose}
    >
      <p>
        Sends every user's latest snapshot again on every channel. The job runs in the background at a limited
        rate; the Pro app receives a repeat of what it already has, which it ignores by version.
      </p>
    </AnswerConfirmDialog>
  );
}
