import { useMutation, useQuery } from "@apollo/client/react";
import {
  Button,
  Classes,
  FormGroup,
  H2,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { Key, Plus } from "@blueprintjs/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  CreateEsrtApiKeyDocument,
  type EsrtApiKeyFieldsFragment,
  EsrtApiKeysDocument,
  RevokeEsrtApiKeyDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { DataTable } from "@web/ui/DataTable";
import { BusyDialog, DialogForm } from "@web/ui/FormDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { LoadError } from "@web/ui/LoadError";
import { OneTimeSecretStep } from "@web/ui/OneTimeSecret";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { AnswerConfirmDialog } from "./AnswerConfirmDialog";
import { apiKeyFormSchema, formatInstant, useAnswerProblem } from "./esrtSync";

/**
 * The Pro app's API keys (machine access to the by-uniqueid lookup and the ack endpoint): name,
 * prefix, when made and last used, revoked; create (the key shown once) and revoke.
 */
export function ApiKeys() {
  const { data, loading, error, refetch } = useQuery(EsrtApiKeysDocument, {
    fetchPolicy: "cache-and-network",
  });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<EsrtApiKeyFieldsFragment | null>(null);
  const keys = data?.esrtApiKeys;
  const handleRetry = () => void refetch().catch(() => undefined);

  return (
    <section className="esrt-keys" aria-labelledby="esrt-keys-heading">
      <div className="esrt-section-head">
        <H2 id="esrt-keys-heading">API keys</H2>
        <Button
          intent={Intent.PRIMARY}
          icon={<Plus />}
          text="Create API key"
          onClick={() => setCreating(true)}
        />
      </div>
      <p className={Classes.TEXT_MUTED}>
        A key lets the Pro app look users up by unique id and acknowledge versions over HTTP, and nothing
        else.
      </p>
      {error && !keys ? (
        <LoadError title="The API keys could not be loaded" error={error} onRetry={handleRetry} />
      ) : !keys ? (
        loading ? (
          <Spinner size={24} aria-label="Loading the API keys" />
        ) : null
      ) : keys.length === 0 ? (
        <NonIdealState
          icon={<Key />}
          title="No API key"
          description="Create one for the Pro app when it reads users or acknowledges versions over HTTP."
        />
      ) : (
        <DataTable
          scrollClassName="esrt-table-scroll"
          className="esrt-table"
          label="API keys"
          striped
          columns={["Name", "Prefix", "Created", "Last used", "Status", "Actions"]}
          rows={keys}
        >
          {(k) => (
            <tr key={k.id} data-api-key-id={k.id}>
              <td className="esrt-wrap">{k.name}</td>
              <td>
                <code className="esrt-code">{k.prefix}…</code>
              </td>
              <td>{formatInstant(k.createdAt)}</td>
              <td>{formatInstant(k.lastUsedAt)}</td>
              <td>
                {k.revokedAt ? (
                  <>
                    <Tag minimal round intent={Intent.DANGER}>
                      Revoked
                    </Tag>
                    <div className={Classes.TEXT_MUTED}>{formatInstant(k.revokedAt)}</div>
                  </>
                ) : (
                  <Tag minimal round intent={Intent.SUCCESS}>
                    Active
                  </Tag>
                )}
              </td>
              <td>
                {k.revokedAt ? null : (
                  <Button
                    variant="minimal"
                    size="small"
                    intent={Intent.DANGER}
                    text="Revoke…"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => setRevoking(k)}
                  />
                )}
              </td>
            </tr>
          )}
        </DataTable>
      )}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
      {revoking ? <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} /> : null}
    </section>
  );
}

type KeyInput = z.input<typeof apiKeyFormSchema>;
type KeyValues = z.output<typeof apiKeyFormSchema>;

/** Creating a key: its name, then (in the same dialog) the key itself, shown once. */
function CreateKeyDialog({ onClose }: { onClose(): void }) {
  useReturnFocus();
  const id = useId();
  const { problem, run } = useAnswerProblem();
  const [key, setKey] = useState<string | null>(null);
  const [create, state] = useMutation(CreateEsrtApiKeyDocument, { refetchQueries: [EsrtApiKeysDocument] });
  const form = useForm<KeyInput, unknown, KeyValues>({
    resolver: zodResolver(apiKeyFormSchema),
    defaultValues: { name: "" },
  });
  const { ref: nameRef, ...nameField } = form.register("name");
  const nameProblem = form.formState.errors.name?.message;
  const submit = form.handleSubmit(async ({ name }) => {
    await run(
      "The API key could not be created",
      async () => (await create({ variables: { name } })).data?.createEsrtApiKey,
      (data) => {
        showToast({ title: "API key created", description: data.apiKey.name, intent: Intent.SUCCESS });
        setKey(data.key);
      },
    );
  });
  return (
    <BusyDialog
      title={key === null ? "Create API key" : "The new API key"}
      busy={state.loading}
      onClose={onClose}
    >
      {key !== null ? (
        <OneTimeSecretStep label="API key" noun="API key" value={key} onClose={onClose}>
          <p>
            The Pro app sends it with each request to the portal's API. The portal keeps only a hash of it and
            its prefix.
          </p>
        </OneTimeSecretStep>
      ) : (
        <DialogForm
          label="Create API key"
          submitText="Create key"
          busy={state.loading}
          problem={problem}
          onSubmit={submit}
          onBack={onClose}
        >
          <FormGroup
            label="Name"
            labelFor={id}
            intent={nameProblem ? Intent.DANGER : Intent.NONE}
            helperText={nameProblem ?? "To tell keys apart, such as “ESRT Pro production”"}
          >
            <InputGroup
              id={id}
              autoFocus
              autoComplete="off"
              fill
              intent={nameProblem ? Intent.DANGER : Intent.NONE}
              aria-invalid={nameProblem ? true : undefined}
              {...nameField}
              inputRef={nameRef}
            />
          </FormGroup>
        </DialogForm>
      )}
    </BusyDialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: EsrtApiKeyFieldsFragment; onClose(): void }) {
  const [revoke, state] = useMutation(RevokeEsrtApiKeyDocument, { refetchQueries: [EsrtApiKeysDocument] });
  return (
    <AnswerConfirmDialog
      title={`Revoke “${apiKey.name}”?`}
      confirmText="Revoke key"
      intent={Intent.DANGER}
      loading={state.loading}
      failure={"The API key could not be revoked"}
      send={async () => (await revoke({ variables: { id: apiKey.id } })).data?.revokeEsrtApiKey}
      onDone={() => {
        showToast({ title: "API key revoked", description: apiKey.name, intent: Intent.SUCCESS });
        onClose();
      }}
      onClose={onClose}
    >
      <p>
        Requests with the key {apiKey.prefix}… are refused from now on. This cannot be undone: the Pro app
        needs a new key.
      </p>
    </AnswerConfirmDialog>
  );
}
