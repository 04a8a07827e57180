import type { CloudSettings } from "@services/document";
import type { Db } from "@services/shared/db";
import { sealSetting } from "@services/shared/sealed";

// Storage settings inputs as a form or an API caller sends them (unchecked, so a test can break one
// field with an override), shared by the use-case tests and the gateway's; and the stored row of
// cloud settings, for tests that write it directly.

/** Local storage of PDFs up to 10,000,000 bytes, with `overrides`. */
export function localStorageInput(overrides: Record<string, unknown> = {}) {
  return {
    storageType: "local",
    maxFileSize: 10_000_000,
    allowedFileTypes: ["pdf"],
    ...overrides,
  };
}

/** Cloud storage of PDFs and PNGs up to 20,000,000 bytes in the store `s3` reaches, with `overrides`. */
export function cloudStorageInput(s3: CloudSettings, overrides: Record<string, unknown> = {}) {
  return {
    storageType: "cloud",
    maxFileSize: 20_000_000,
    allowedFileTypes: ["pdf", "png"],
    cloudEndpoint: s3.endpoint,
    cloudRegion: s3.region,
    cloudBucket: s3.bucket,
    cloudForcePathStyle: true,
    cloudAccessKeyId: s3.accessKeyId,
    cloudSecretAccessKey: s3.secretAccessKey,
    ...overrides,
  };
}

/**
 * The storage_config columns that send new uploads to the store `s3` reaches, its secret sealed as
 * the service keeps it: for a test or a benchmark that writes the row itself.
 */
export function cloudStorageRow(s3: CloudSettings) {
  return {
    storageType: "cloud" as const,
    cloudEndpoint: s3.endpoint,
    cloudRegion: s3.region,
    cloudBucket: s3.bucket,
    cloudForcePathStyle: s3.forcePathStyle,
    cloudAccessKeyId: s3.accessKeyId,
    cloudSecretSealed: sealSetting(s3.secretAccessKey),
  };
}

/**
 * Replaces `db`'s storage settings with cloud storage in the store `s3` reaches (the defaults for
 * the rest), so every upload from then on goes there.
 * @throws Prisma errors.
 */
export async function switchToCloudStorage(db: Db, s3: CloudSettings): Promise<void> {
  await db.prisma.storageConfig.deleteMany();
  await db.prisma.storageConfig.create({ data: cloudStorageRow(s3) });
}
