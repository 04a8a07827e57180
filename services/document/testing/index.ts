/**
 * Test helpers of the document service that other rooms' tests may use (never production code).
 */
export { fixtures } from "./fixtures";
export { isolatedDb } from "./scratchDb";
