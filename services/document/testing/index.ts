/**
 * Test helpers of the document service that other rooms' tests may use (never production code).
 */

export { isolatedDb } from "@services/shared/testing/db";
export { clientActor, teamActor } from "./actors";
export { fixtures, type SamplePdfOptions, samplePdf } from "./fixtures";
export { type AdapterUnderTest, STORAGE_ADAPTERS } from "./storageAdapters";
export { cloudStorageInput, cloudStorageRow, localStorageInput, switchToCloudStorage } from "./storageInputs";
