import { useMutation } from "@apollo/client/react";
import { FormGroup, InputGroup, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  CreateEsrtEndpointDocument,
  type EsrtEndpointFieldsFragment,
  EsrtSyncOverviewDocument,
  RotateEsrtEndpointSecretDocument,
  SetEsrtEndpointEnabledDocument,
  UpdateEsrtEndpointDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ConfirmForm } from "@web/ui/ConfirmDialog";
import { BusyDialog, DialogForm } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { OneTimeSecretStep } from "@web/ui/OneTimeSecret";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { AnswerConfirmDialog } from "./AnswerConfirmDialog";
import { endpointFormSchema, formatInstant, readAnswer, thrownMessage, useAnswerProblem } from "./esrtSync";

/** What the endpoints table asks a dialog for. */
export type EndpointAction =
  | { kind: "add" }
  | { kind: "edit"; endpoint: EsrtEndpointFieldsFragment }
  | { kind: "rotate"; endpoint: EsrtEndpointFieldsFragment }
  | { kind: "disable"; endpoint: EsrtEndpointFieldsFragment };

/** Props of the endpoints' dialogs. */
export interface EndpointDialogProps {
  action: EndpointAction;
  onClose(): void;
}

/** The dialog of one endpoint action. Mount it only while it is open. */
export function EndpointDialog({ action, onClose }: EndpointDialogProps) {
  switch (action.kind) {
    case "add":
      return <EndpointFormDialog endpoint={null} onClose={onClose} />;
    case "edit":
      return <EndpointFormDialog endpoint={action.endpoint} onClose={onClose} />;
    case "rotate":
      return <RotateSecretDialog endpoint={action.endpoint} onClose={onClose} />;
    case "disable":
      return <DisableDialog endpoint={action.endpoint} onClose={onClose} />;
  }
}

const REFETCH_OVERVIEW = { refetchQueries: [EsrtSyncOverviewDocument] };

type EndpointInput = z.input<typeof endpointFormSchema>;
type EndpointValues = z.output<typeof endpointFormSchema>;

/**
 * Adding an endpoint (then its whsec_ secret, shown once in the same dialog) or editing one's URL
 * and description. The URL must parse; the server's https and address rules come back as a message.
 */
function EndpointFormDialog({
  endpoint,
  onClose,
}: {
  endpoint: EsrtEndpointFieldsFragment | null;
  onClose(): void;
}) {
  useReturnFocus();
  const ids = { url: useId(), description: useId() };
  const [problem, setProblem] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [create, createState] = useMutation(CreateEsrtEndpointDocument, REFETCH_OVERVIEW);
  const [update, updateState] = useMutation(UpdateEsrtEndpointDocument, REFETCH_OVERVIEW);
  const busy = createState.loading || updateState.loading;
  const form = useForm<EndpointInput, unknown, EndpointValues>({
    resolver: zodResolver(endpointFormSchema),
    defaultValues: { url: endpoint?.url ?? "", description: endpoint?.description ?? "" },
  });
  const { ref: urlRef, ...urlField } = form.register("url");
  const { ref: descriptionRef, ...descriptionField } = form.register("description");
  const urlProblem = form.formState.errors.url?.message;
  const descriptionProblem = form.formState.errors.description?.message;
  const title = endpoint ? "Edit endpoint" : "Add endpoint";

  const submit = form.handleSubmit(async (input) => {
    setProblem(null);
    const failure = endpoint ? "The endpoint could not be saved" : "The endpoint could not be added";
    try {
      if (endpoint) {
        const result = await update({ variables: { id: endpoint.id, input } });
        const outcome = readAnswer(result.data?.updateEsrtEndpoint, failure);
        if (!outcome.ok) return setProblem(outcome.message);
        showToast({ title: "Endpoint saved", description: outcome.data.url, intent: Intent.SUCCESS });
        onClose();
        return;
      }
      const result = await create({ variables: { input } });
      const outcome = readAnswer(result.data?.createEsrtEndpoint, failure);
      if (!outcome.ok) return setProblem(outcome.message);
      showToast({ title: "Endpoint added", description: outcome.data.endpoint.url, intent: Intent.SUCCESS });
      setSecret(outcome.data.secret);
    } catch (caught) {
      setProblem(thrownMessage(caught, failure));
    }
  });

  // one dialog throughout: after adding, the same overlay shows the secret (focus stays inside it)
  return (
    <BusyDialog
      title={secret === null ? title : "The endpoint's signing secret"}
      busy={busy}
      onClose={onClose}
    >
      {secret !== null ? (
        <OneTimeSecretStep label="Signing secret" noun="signing secret" value={secret} onClose={onClose}>
          <p>
            The Pro app verifies each webhook's <code>webhook-signature</code> with it (Standard Webhooks).
            Send a test event once it is stored.
          </p>
        </OneTimeSecretStep>
      ) : (
        <DialogForm
          label={title}
          submitText={endpoint ? "Save" : "Add endpoint"}
          busy={busy}
          problem={problem}
          onSubmit={submit}
          onBack={onClose}
        >
          <FormGroup
            label="URL"
            labelFor={ids.url}
            labelInfo="(required)"
            intent={urlProblem ? Intent.DANGER : Intent.NONE}
            helperText={
              urlProblem ?? "Where the Pro app receives webhooks, such as https://pro.example.com/webhooks"
            }
          >
            <InputGroup
              id={ids.url}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              autoFocus
              fill
              intent={urlProblem ? Intent.DANGER : Intent.NONE}
              aria-invalid={urlProblem ? true : undefined}
              {...urlField}
              inputRef={urlRef}
            />
          </FormGroup>
          <FormGroup
            label="Description"
            labelFor={ids.description}
            labelInfo="(optional)"
            intent={descriptionProblem ? Intent.DANGER : Intent.NONE}
            helperText={descriptionProblem}
          >
            <InputGroup
              id={ids.description}
              fill
              intent={descriptionProblem ? Intent.DANGER : Intent.NONE}
              {...descriptionField}
              inputRef={descriptionRef}
            />
          </FormGroup>
        </DialogForm>
      )}
    </BusyDialog>
  );
}

/**
 * Rotating an endpoint's secret: a confirmation, then, in the same dialog, the new secret once and
 * until when the old one keeps signing.
 */
function RotateSecretDialog({
  endpoint,
  onClose,
}: {
  endpoint: EsrtEndpointFieldsFragment;
  onClose(): void;
}) {
  useReturnFocus();
  const { problem, run } = useAnswerProblem();
  const [rotated, setRotated] = useState<{ secret: string; graceUntil: string | null } | null>(null);
  const [rotate, state] = useMutation(RotateEsrtEndpointSecretDocument, REFETCH_OVERVIEW);
  const handleConfirm = async () => {
    await run(
      "The secret could not be rotated",
      async () => (await rotate({ variables: { id: endpoint.id } })).data?.rotateEsrtEndpointSecret,
      (data) => {
        setRotated({ secret: data.secret, graceUntil: data.endpoint.previousSecretExpiresAt });
      },
    );
  };
  return (
    <BusyDialog
      title={rotated ? "The new signing secret" : "Rotate the signing secret?"}
      busy={state.loading}
      onClose={onClose}
    >
      {rotated ? (
        <OneTimeSecretStep
          label="Signing secret"
          noun="signing secret"
          value={rotated.secret}
          onClose={onClose}
        >
          <p>
            {rotated.graceUntil
              ? `The old secret keeps signing as well until ${formatInstant(rotated.graceUntil)}; change the Pro app's setting before then.`
              : "The old secret no longer signs: change the Pro app's setting now."}
          </p>
        </OneTimeSecretStep>
      ) : (
        <ConfirmForm
          title="Rotate the signing secret?"
          confirmText="Rotate secret"
          intent={Intent.WARNING}
          loading={state.loading}
          problem={problem}
          onConfirm={() => void handleConfirm()}
          onClose={onClose}
        >
          <p>
            {endpoint.url} gets a new secret. For a grace period each webhook carries two signatures, the old
            secret's and the new one's, so the Pro app keeps verifying until its setting is changed.
          </p>
        </ConfirmForm>
      )}
    </BusyDialog>
  );
}

function DisableDialog({ endpoint, onClose }: { endpoint: EsrtEndpointFieldsFragment; onClose(): void }) {
  const [setEnabled, state] = useMutation(SetEsrtEndpointEnabledDocument, REFETCH_OVERVIEW);
  return (
    <AnswerConfirmDialog
      title="Disable this endpoint?"
      confirmText="Disable"
      intent={Intent.DANGER}
      loading={state.loading}
      failure="The endpoint could not be disabled"
      send={async () =>
        (await setEnabled({ variables: { id: endpoint.id, enabled: false } })).data?.setEsrtEndpointEnabled
      }
      onDone={() => {
        showToast({ title: "Endpoint disabled", description: endpoint.url, intent: Intent.SUCCESS });
        onClose();
      }}
      onClose={onClose}
    >
      <p>
        Nothing more is sent to {endpoint.url} until it is enabled again. Users keep changing meanwhile;
        enabling it sends each one's latest version.
      </p>
    </AnswerConfirmDialog>
  );
}
