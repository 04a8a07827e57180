import type { StorageSettingsInput } from "@schema/validation/document";

// The storage settings form's values apart from React (issue 9, /admin/storage): what the form
// starts from (the stored settings; the secret is never sent back, so its field starts empty) and
// the mutation's input from the checked values.

/** What the server answers for the settings, as far as the form uses it. */
export interface StoredSettings {
  storageType: "local" | "cloud";
  maxFileSize: number;
  allowedFileTypes: readonly string[];
  cloudEndpoint: string | null;
  cloudRegion: string | null;
  cloudBucket: string | null;
  cloudForcePathStyle: boolean;
  cloudAccessKeyId: string | null;
}

/** The form's values for stored settings: empty strings for unset cloud fields, an empty secret. */
export function formValuesOf(settings: StoredSettings): StorageSettingsInput {
  return {
    storageType: settings.storageType,
    maxFileSize: settings.maxFileSize,
    allowedFileTypes: [...settings.allowedFileTypes],
    cloudEndpoint: settings.cloudEndpoint ?? "",
    cloudRegion: settings.cloudRegion ?? "",
    cloudBucket: settings.cloudBucket ?? "",
    cloudForcePathStyle: settings.cloudForcePathStyle,
    cloudAccessKeyId: settings.cloudAccessKeyId ?? "",
    cloudSecretAccessKey: "",
  };
}

/** The values checked by the shared schema (unset fields undefined). */
export interface CheckedSettings {
  storageType: "local" | "cloud";
  maxFileSize: number;
  allowedFileTypes: string[];
  cloudEndpoint?: string;
  cloudRegion?: string;
  cloudBucket?: string;
  cloudForcePathStyle: boolean;
  cloudAccessKeyId?: string;
  cloudSecretAccessKey?: string;
}

/**
 * The GraphQL input of checked values: unset cloud fields as null, and no secret at all when it was
 * left empty (the stored one is kept).
 */
export function settingsInputOf(values: CheckedSettings) {
  return {
    storageType: values.storageType,
    maxFileSize: values.maxFileSize,
    allowedFileTypes: values.allowedFileTypes,
    cloudEndpoint: values.cloudEndpoint ?? null,
    cloudRegion: values.cloudRegion ?? null,
    cloudBucket: values.cloudBucket ?? null,
    cloudForcePathStyle: values.cloudForcePathStyle,
    cloudAccessKeyId: values.cloudAccessKeyId ?? null,
    ...(values.cloudSecretAccessKey ? { cloudSecretAccessKey: values.cloudSecretAccessKey } : {}),
  };
}
