import type { CloudSettings } from "@services/document";

// Storage settings inputs as a form or an API caller sends them (unchecked, so a test can break one
// field with an override), shared by the use-case tests and the gateway's.

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
