// The event bus as the outbox relay and the consumers see it. Two implementations with the same
// guarantees: JetStream (./jetstream) and an in-process bus for the embedded mode (./memory).
//
// Guarantees: publish is idempotent per msgId within the duplicate window; delivery is at least
// once per durable; a message that is neither acked nor terminated is delivered again (after the
// delay given to nak, or after backoffMs[deliveryCount - 1] when the handler failed or returned
// without settling it) until maxDeliver deliveries have been made.

/** One delivery of a message to a durable subscription. */
export interface TransportMessage {
  subject: string;
  data: Uint8Array;
  /** 1 on the first delivery */
  deliveryCount: number;
  ack(): Promise<void>;
  /** asks for redelivery, after `delayMs` when given */
  nak(delayMs?: number): Promise<void>;
  /** never deliver this message to this durable again */
  term(): Promise<void>;
}

export interface SubscribeOptions {
  /** name of the durable subscription; its position survives restarts (letters, digits, _ and -) */
  durable: string;
  /** exact subjects (or NATS wildcards) this durable receives */
  subjects: string[];
  maxDeliver: number;
  /** redelivery delays in ms, the last one repeats; backoffMs[0] is also the time allowed before an
   * unsettled delivery counts as lost */
  backoffMs: number[];
  handler: (msg: TransportMessage) => Promise<void>;
  /**
   * messages handled at once (default 1: one after another, in stream order); each is settled by
   * its own handler, and stop() waits for all of them
   */
  concurrency?: number;
}

export interface Subscription {
  /** stops delivering; waits for the handler in progress; unsettled messages are delivered again later */
  stop(): Promise<void>;
}

/** One durable consumer as the bus sees it. */
export interface BusConsumerState {
  durable: string;
  /** messages not yet delivered to it (its lag) */
  pending: number;
  /** delivered and not yet settled */
  ackPending: number;
  /** deliveries that were redeliveries */
  redelivered: number;
  /** pull requests waiting (0 while no worker is consuming) */
  waiting: number;
}

/** The stream and its durable consumers, for the testing tools. */
export interface BusState {
  /** the JetStream stream's name; null for the in-process bus */
  stream: string | null;
  messages: number;
  bytes: number;
  consumers: BusConsumerState[];
}

export interface EventTransport {
  readonly kind: "jetstream" | "memory";
  /** @throws when the bus does not confirm the message (it is then not stored) */
  publish(subject: string, msgId: string, data: Uint8Array): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /** messages of the durable not yet settled (consumer lag) */
  pending(durable: string): Promise<number>;
  /** the stream's size and every durable consumer's counts */
  state(): Promise<BusState>;
  close(): Promise<void>;
}

/** The delay before redelivery number `deliveryCount + 1`. */
export function backoffFor(backoffMs: readonly number[], deliveryCount: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(Math.max(deliveryCount, 1), backoffMs.length) - 1] ?? 0;
}

/** Whether a subject matches a NATS subject filter (`*` one token, `>` the rest). */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split(".");
  const s = subject.split(".");
  for (let i = 0; i < f.length; i++) {
    const token = f[i];
    if (token === ">") return s.length > i;
    if (i >= s.length) return false;
    if (token !== "*" && token !== s[i]) return false;
  }
  return f.length === s.length;
}

/** Checks a durable name (JetStream refuses dots, wildcards and spaces). @throws Error */
export function assertDurableName(name: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new Error(`durable name "${name}" may only hold letters, digits, '_' and '-' (at most 64)`);
  }
}
