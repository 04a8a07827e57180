/**
 * Test helpers of the document service that other rooms' tests may use (never production code).
 */

export { isolatedDb } from "@services/shared/testing/db";
export { clientActor, teamActor } from "./actors";
export { fixtures } from "./fixtures";
export { cloudStorageInput, localStorageInput } from "./storageInputs";
