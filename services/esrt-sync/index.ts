/**
 * The Pro-app (ESRT Pro) sync service, a subscriber: user snapshots delivered as signed webhooks
 * and on NATS, acknowledgements, endpoints, API keys and the sync page's reads and actions.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/esrt-sync` only, never a file inside it.
 */

export type {
  AttemptView,
  DeliveryPage,
  DeliveryView,
  NatsChannelView,
  SyncCounts,
  SyncOverview,
} from "./admin";
export {
  DELIVERY_STATUSES,
  deliveryAttempts,
  getDelivery,
  listDeliveries,
  redeliver,
  replayFailed,
  resyncUser,
  syncOverview,
} from "./admin";
export type { ApiKeyView } from "./apiKeys";
export { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "./apiKeys";
export { userSnapshotsConsumer } from "./consumers/userSnapshots";
export type { Dispatcher } from "./dispatcher";
export { startDispatcher } from "./dispatcher";
export type { EndpointView, EsrtHealth } from "./endpoints";
export {
  createEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  sendTestEvent,
  setEndpointEnabled,
  updateEndpoint,
} from "./endpoints";
export type { JobView } from "./jobs";
export { listJobs, startResyncAll } from "./jobs";
export { ackSubject, userSubject } from "./natsChannel";
export { acknowledge, applySnapshot } from "./state";

// The worker entry: the service's event consumers and background work (services/registry.ts).
export { consumers, startWorkers } from "./worker";
