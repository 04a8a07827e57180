/**
 * The testing tools (/admin/testing): dependency health, the event round trip, dead letters and
 * demo data.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/diagnostics` only, never a file inside it.
 */

export type { DeadLetterPage, DeadLetterView, RetryOutcome } from "./deadLetters";
export { listDeadLetters, retryDeadLetter } from "./deadLetters";
export type { DemoDataCounts, DemoDataStatus } from "./demoData";
export { demoDataStatus, generateDemoData, removeDemoData } from "./demoData";
export type { SystemProbes } from "./probes";
export { PROBE_TIMEOUT_MS } from "./probes";
export type { RoundTrip, RoundTripAnswer } from "./roundTrip";
export { roundTripResult, startRoundTrip } from "./roundTrip";
export type { ConsumerHealth, DependencyHealth, SystemHealth } from "./systemHealth";
export { systemHealth } from "./systemHealth";
