// The event backbone: transactional outbox, relay, transports and consumers with an inbox.
export {
  type Consumer,
  type ConsumerDefinition,
  defineConsumer,
  durableName,
  type RunningConsumers,
  startConsumers,
} from "./consumer";
export { type JetStreamTransportOptions, jetStreamTransport } from "./jetstream";
export { type MemoryTransportOptions, memoryTransport } from "./memory";
export { type EmitEvent, type EmitMeta, emit } from "./outbox";
export { type Relay, type RelayOptions, startRelay } from "./relay";
export type { EventTransport, SubscribeOptions, Subscription, TransportMessage } from "./transport";
