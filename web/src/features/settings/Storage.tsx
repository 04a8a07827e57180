import "@blueprintjs/select/lib/css/blueprint-select.css";
import "@web/features/documents/documents.css";
import "@web/features/admin-documents/review.css";
import {
  Card,
  Classes,
  FormGroup,
  H2,
  InputGroup,
  Intent,
  MenuItem,
  NumericInput,
  Radio,
  RadioGroup,
  Switch,
} from "@blueprintjs/core";
import { Database } from "@blueprintjs/icons";
import { MultiSelect } from "@blueprintjs/select";
import { formatBytes, storageSettingsSchema } from "@schema/validation/document";
import { formValuesOf, settingsInputOf } from "@web/features/admin-documents/storage";
import { bytesToMegabytes, megabytesToBytes } from "@web/features/documents/documents";
import {
  StorageSettingsDocument,
  type StorageSettingsFieldsFragment,
  TestStorageConnectionDocument,
  UpdateStorageSettingsDocument,
} from "@web/generated/graphql";
import { ConnectionTest, useConnectionTest } from "@web/ui/ConnectionTest";
import { DataTable } from "@web/ui/DataTable";
import { SaveButton, settingsPage, useSettingsSave } from "@web/ui/SettingsScreen";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { LastChanged } from "./LastChanged";

/**
 * Storage Settings (spec §2 and §5, manage:config; issue 9): where new uploads are stored (local
 * disk or an S3-compatible cloud store, with "Test connection"), the largest file in MB, the allowed
 * file types, and the documents stored so far on each backend.
 */
export const StoragePage = settingsPage({
  className: "storage-page",
  title: "Storage Settings",
  what: "the storage settings",
  query: StorageSettingsDocument,
  pick: (data) => data.storageSettings,
  children: (settings) => (
    <>
      <StorageForm settings={settings} />
      <StorageUsage settings={settings} />
    </>
  ),
});

/** The settings form, checked with the shared schema and its messages. */
function StorageForm({ settings }: { settings: StorageSettingsFieldsFragment }) {
  const ids = {
    size: useId(),
    types: useId(),
    endpoint: useId(),
    region: useId(),
    bucket: useId(),
    key: useId(),
    secret: useId(),
    pathStyle: useId(),
    storageType: useId(),
  };
  const [megabytes, setMegabytes] = useState(() => String(bytesToMegabytes(settings.maxFileSize)));
  const { form, submit, saving } = useSettingsSave({
    schema: storageSettingsSchema,
    settings,
    valuesOf: formValuesOf,
    onReset: (next) => setMegabytes(String(bytesToMegabytes(next.maxFileSize))),
    mutation: UpdateStorageSettingsDocument,
    query: StorageSettingsDocument,
    variablesOf: (values) => ({ input: settingsInputOf(values) }),
    answerOf: (data) => data.updateStorageSettings,
    success: "MutationUpdateStorageSettingsSuccess",
    saved: (answer) => ({
      title: "Storage settings saved",
      description: `New uploads go to ${answer.data.storageType === "cloud" ? "cloud" : "local"} storage`,
    }),
    failure: "Failed to save storage settings",
  });
  const connection = useConnectionTest({
    mutation: TestStorageConnectionDocument,
    answerOf: (data) => data.testStorageConnection,
    success: "MutationTestStorageConnectionSuccess",
  });
  const storageType = form.watch("storageType");
  const bytes = form.watch("maxFileSize");
  const errors = form.formState.errors;
  const cloud = storageType === "cloud";

  const testConnection = form.handleSubmit((values) => connection.run({ input: settingsInputOf(values) }));

  // Blueprint's inputs take the DOM ref as inputRef (their ref is the component)
  const bind = (
    name: "cloudEndpoint" | "cloudRegion" | "cloudBucket" | "cloudAccessKeyId" | "cloudSecretAccessKey",
  ) => {
    const { ref, ...rest } = form.register(name);
    return { ...rest, inputRef: ref };
  };
  const fieldError = (message: string | undefined) => ({
    intent: message ? Intent.DANGER : Intent.NONE,
    helperText: message,
  });
  const typesError = errors.allowedFileTypes?.message ?? errors.allowedFileTypes?.root?.message;

  return (
    <Card className="storage-form-card">
      <form onSubmit={submit} noValidate aria-label="Storage settings" className="storage-form">
        <FormGroup label={<span id={ids.storageType}>Storage for new uploads</span>}>
          <Controller
            control={form.control}
            name="storageType"
            render={({ field }) => (
              <RadioGroup
                name={ids.storageType}
                aria-labelledby={ids.storageType}
                inline
                selectedValue={field.value}
                onChange={(e) => {
                  field.onChange(e.currentTarget.value);
                  connection.clear();
                }}
              >
                <Radio value="local" label="Local disk" />
                <Radio value="cloud" label="Cloud (S3-compatible)" />
              </RadioGroup>
            )}
          />
        </FormGroup>
        <FormGroup
          label="Maximum file size (MB)"
          labelFor={ids.size}
          {...fieldError(errors.maxFileSize?.message)}
          helperText={
            errors.maxFileSize?.message ??
            (Number.isFinite(bytes) ? `${Number(bytes).toLocaleString("en-US")} bytes` : undefined)
          }
        >
          <NumericInput
            id={ids.size}
            value={megabytes}
            min={0}
            stepSize={1}
            minorStepSize={0.000001}
            majorStepSize={100}
            buttonPosition="none"
            allowNumericCharactersOnly
            intent={errors.maxFileSize ? Intent.DANGER : Intent.NONE}
            onValueChange={(value, text) => {
              setMegabytes(text);
              form.setValue("maxFileSize", text.trim() === "" ? Number.NaN : megabytesToBytes(value), {
                shouldValidate: true,
                shouldDirty: true,
              });
            }}
          />
        </FormGroup>
        <FormGroup label="Allowed file types" labelFor={ids.types} {...fieldError(typesError)}>
          <Controller
            control={form.control}
            name="allowedFileTypes"
            render={({ field }) => {
              const chosen = field.value ?? [];
              const set = (next: string[]) => field.onChange(next);
              return (
                <MultiSelect<string>
                  items={settings.knownFileTypes}
                  selectedItems={chosen}
                  fill
                  resetOnSelect
                  placeholder="Add a file type…"
                  popoverProps={{ minimal: true }}
                  popoverTargetProps={
                    { "aria-label": "Allowed file types" } as React.HTMLAttributes<HTMLElement>
                  }
                  menuProps={{ "aria-label": "File types" }}
                  tagInputProps={{
                    inputProps: { id: ids.types },
                    tagProps: { minimal: true },
                    intent: typesError ? Intent.DANGER : Intent.NONE,
                  }}
                  itemPredicate={(query, item) =>
                    item.includes(query.trim().toLowerCase().replace(/^\./, ""))
                  }
                  itemRenderer={(item, { handleClick, handleFocus, modifiers, ref }) =>
                    modifiers.matchesPredicate ? (
                      <MenuItem
                        key={item}
                        ref={ref}
                        text={`.${item}`}
                        roleStructure="listoption"
                        selected={chosen.includes(item)}
                        active={modifiers.active}
                        shouldDismissPopover={false}
                        onClick={handleClick}
                        onFocus={handleFocus}
                      />
                    ) : null
                  }
                  noResults={
                    <MenuItem disabled text="The portal cannot verify that type" roleStructure="listoption" />
                  }
                  onItemSelect={(item) =>
                    set(chosen.includes(item) ? chosen.filter((t) => t !== item) : [...chosen, item])
                  }
                  onRemove={(item) => set(chosen.filter((t) => t !== item))}
                  onClear={() => set([])}
                  tagRenderer={(item) => item}
                />
              );
            }}
          />
        </FormGroup>
        {cloud && (
          <fieldset className="storage-cloud">
            <legend>Cloud storage</legend>
            <FormGroup
              label="Endpoint"
              labelFor={ids.endpoint}
              {...fieldError(errors.cloudEndpoint?.message)}
            >
              <InputGroup id={ids.endpoint} placeholder="https://s3.example.com" {...bind("cloudEndpoint")} />
            </FormGroup>
            <FormGroup label="Region" labelFor={ids.region} {...fieldError(errors.cloudRegion?.message)}>
              <InputGroup id={ids.region} placeholder="us-east-1" {...bind("cloudRegion")} />
            </FormGroup>
            <FormGroup label="Bucket" labelFor={ids.bucket} {...fieldError(errors.cloudBucket?.message)}>
              <InputGroup id={ids.bucket} {...bind("cloudBucket")} />
            </FormGroup>
            <Controller
              control={form.control}
              name="cloudForcePathStyle"
              render={({ field }) => (
                <Switch
                  id={ids.pathStyle}
                  label="Path-style addressing (most S3-compatible stores need it)"
                  checked={field.value ?? true}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
            <FormGroup
              label="Access key ID"
              labelFor={ids.key}
              {...fieldError(errors.cloudAccessKeyId?.message)}
            >
              <InputGroup id={ids.key} autoComplete="off" {...bind("cloudAccessKeyId")} />
            </FormGroup>
            <FormGroup
              label="Secret access key"
              labelFor={ids.secret}
              {...fieldError(errors.cloudSecretAccessKey?.message)}
              helperText={
                errors.cloudSecretAccessKey?.message ??
                (settings.cloudSecretSet ? "A secret is stored; it is never shown." : undefined)
              }
            >
              <InputGroup
                id={ids.secret}
                type="password"
                autoComplete="new-password"
                placeholder={settings.cloudSecretSet ? "Stored — leave empty to keep" : undefined}
                {...bind("cloudSecretAccessKey")}
              />
            </FormGroup>
            <ConnectionTest
              className="storage-test-result"
              result={connection.result}
              testing={connection.testing}
              onTest={() => void testConnection()}
            />
          </fieldset>
        )}
        <div className="storage-actions">
          <SaveButton text="Save settings" loading={saving} />
          <LastChanged
            updatedAt={settings.updatedAt}
            updatedBy={settings.updatedBy}
            then="Changing the storage affects new uploads only."
          />
        </div>
      </form>
    </Card>
  );
}

/** The stored documents' count and bytes on each backend. */
function StorageUsage({ settings }: { settings: StorageSettingsFieldsFragment }) {
  const headingId = useId();
  return (
    <section className="documents-section" aria-labelledby={headingId}>
      <H2 id={headingId}>
        <Database /> Stored documents
      </H2>
      {settings.usage.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>No document is stored yet.</p>
      ) : (
        <DataTable
          scrollClassName="documents-table-scroll"
          className="documents-table storage-usage"
          label="Stored documents per backend"
          plainHeadings
          columns={["Backend", "Documents", "Stored"]}
          rows={settings.usage}
        >
          {(u) => (
            <tr key={u.backend}>
              <td>{u.backend === "cloud" ? "Cloud" : "Local disk"}</td>
              <td>{u.documents.toLocaleString("en-US")}</td>
              <td>{formatBytes(u.bytes)}</td>
            </tr>
          )}
        </DataTable>
      )}
    </section>
  );
}
