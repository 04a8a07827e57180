import { builder } from "@gateway/graphql/builder";
import { settingsChangeBy } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import {
  getStorageSettings,
  type StorageSettingsView,
  type StorageTestResult,
  type StorageUsage,
  storageUsage,
  testStorageConnection,
  type UploadPolicy,
  updateStorageSettings,
  uploadPolicy,
} from "@services/document";
import { AppError } from "@services/shared/errors";

// Storage settings (manage:config) and the upload policy every client checks before sending a file
// (issue 9). The cloud secret is write-only: no type here has a field that could carry it.

export const StorageBackendEnum = builder.enumType("StorageBackend", { values: ["local", "cloud"] as const });

const StorageUsageRef = builder.objectRef<StorageUsage>("StorageUsage").implement({
  description: "Stored documents' count and bytes on one backend.",
  fields: (t) => ({
    backend: t.field({ type: StorageBackendEnum, resolve: (u) => u.backend }),
    documents: t.exposeInt("documents"),
    bytes: t.field({ type: "SafeInt", resolve: (u) => u.bytes }),
  }),
});

const StorageSettingsRef = builder.objectRef<StorageSettingsView>("StorageSettings").implement({
  description: "Where new uploads are stored and which files are accepted (the secret is never returned).",
  fields: (t) => ({
    storageType: t.field({ type: StorageBackendEnum, resolve: (s) => s.storageType }),
    maxFileSize: t.field({ type: "SafeInt", resolve: (s) => s.maxFileSize }),
    allowedFileTypes: t.exposeStringList("allowedFileTypes"),
    knownFileTypes: t.exposeStringList("knownFileTypes", {
      description: "every type the portal can verify by content (the multi-select's options)",
    }),
    cloudEndpoint: t.exposeString("cloudEndpoint", { nullable: true }),
    cloudRegion: t.exposeString("cloudRegion", { nullable: true }),
    cloudBucket: t.exposeString("cloudBucket", { nullable: true }),
    cloudForcePathStyle: t.exposeBoolean("cloudForcePathStyle"),
    cloudAccessKeyId: t.exposeString("cloudAccessKeyId", { nullable: true }),
    cloudSecretSet: t.exposeBoolean("cloudSecretSet", { description: "whether a secret key is stored" }),
    updatedAt: t.field({ type: "DateTime", resolve: (s) => s.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
    usage: t.field({
      type: [StorageUsageRef],
      description: "stored documents' count and bytes per backend",
      resolve: (_s, _args, ctx) => storageUsage(ctx.db),
    }),
  }),
});

const UploadPolicyRef = builder.objectRef<UploadPolicy>("UploadPolicy").implement({
  description: "What the browser checks before an upload (the same rules as the server).",
  fields: (t) => ({
    endpoint: t.exposeString("endpoint"),
    maxFileSize: t.field({ type: "SafeInt", resolve: (p) => p.maxFileSize }),
    allowedFileTypes: t.exposeStringList("allowedFileTypes"),
  }),
});

const StorageTestResultRef = builder.objectRef<StorageTestResult>("StorageTestResult").implement({
  description: "The outcome of a storage connection test, in words for the administrator.",
  fields: (t) => ({
    ok: t.exposeBoolean("ok"),
    message: t.exposeString("message"),
    latencyMs: t.exposeInt("latencyMs"),
  }),
});

const StorageSettingsInput = builder.inputType("StorageSettingsInput", {
  description: "The storage settings form; an empty cloudSecretAccessKey keeps the stored secret.",
  fields: (t) => ({
    storageType: t.field({ type: StorageBackendEnum, required: true }),
    maxFileSize: t.field({ type: "SafeInt", required: true }),
    allowedFileTypes: t.stringList({ required: true }),
    cloudEndpoint: t.string(),
    cloudRegion: t.string(),
    cloudBucket: t.string(),
    cloudForcePathStyle: t.boolean(),
    cloudAccessKeyId: t.string(),
    cloudSecretAccessKey: t.string({ description: "write-only; empty keeps the stored one" }),
  }),
});

dbQuery("storageSettings", {
  type: StorageSettingsRef,
  description: "The storage settings (manage:config); the secret key is never returned.",
  authScopes: { manageConfig: true },
  read: getStorageSettings,
});

dbQuery("uploadPolicy", {
  type: UploadPolicyRef,
  description: "The upload endpoint, the largest file and the allowed types, for the browser's checks.",
  authScopes: { client: true },
  read: uploadPolicy,
});

builder.mutationField("updateStorageSettings", (t) =>
  t.field({
    type: StorageSettingsRef,
    description: "Changes the storage settings; new uploads follow them, stored files stay where they are.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: StorageSettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        updateStorageSettings({ ...settingsChangeBy(ctx), input: withoutNulls(args.input) }),
      ),
  }),
);

builder.mutationField("testStorageConnection", (t) =>
  t.field({
    type: StorageTestResultRef,
    description:
      "Writes, reads back and deletes a probe object with the given settings (the stored secret if none) and answers what came of it in the portal's words. An endpoint at a loopback or private address is refused outside development.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: StorageSettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => testStorageConnection({ db: ctx.db, input: withoutNulls(args.input) })),
  }),
);
