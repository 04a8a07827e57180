import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { connectNats } from "../nats";
import { jetStreamTransport } from "./jetstream";
import { memoryTransport } from "./memory";
import { deleteStream, settle, uniqueBus, waitFor } from "./testing/bus";
import { type EventTransport, type SubscribeOptions, type Subscription, subjectMatches } from "./transport";

const text = (s: string) => new TextEncoder().encode(s);
const read = (d: Uint8Array) => new TextDecoder().decode(d);

interface Bus {
  transport: EventTransport;
  prefix: string;
  cleanup(): Promise<void>;
}

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
});
afterAll(async () => {
  await nc.close();
});

const makers: Record<"memory" | "jetstream", () => Promise<Bus & { stream: string }>> = {
  memory: async () => {
    const { prefix, stream } = uniqueBus();
    const transport = memoryTransport();
    return { transport, prefix, stream, cleanup: () => transport.close() };
  },
  jetstream: async () => {
    const { prefix, stream } = uniqueBus();
    const transport = await jetStreamTransport({ nc, stream, subjectPrefix: prefix, ackWaitMs: 1000 });
    return {
      transport,
      prefix,
      stream,
      cleanup: async () => {
        await transport.close();
        await deleteStream(nc, stream);
      },
    };
  },
};

describe.each(["memory", "jetstream"] as const)("%s transport", (kind) => {
  let bus: Bus;
  const subs: Subscription[] = [];
  beforeEach(async () => {
    bus = await makers[kind]();
  });
  afterEach(async () => {
    await Promise.all(subs.splice(0).map((s) => s.stop()));
    await bus.cleanup();
  });

  async function subscribe(
    durable: string,
    subjects: string[],
    handler: SubscribeOptions["handler"],
    extra: Partial<SubscribeOptions> = {},
  ): Promise<Subscription> {
    const sub = await bus.transport.subscribe({
      durable,
      subjects,
      maxDeliver: 3,
      backoffMs: [50, 100],
      handler,
      ...extra,
    });
    subs.push(sub);
    return sub;
  }

  it("delivers each published message once, in order, and drops a repeated msgId", async () => {
    const got: string[] = [];
    const subject = `${bus.prefix}.user.registered`;
    await subscribe("d1", [subject], async (m) => {
      got.push(read(m.data));
      await m.ack();
    });
    await bus.transport.publish(subject, "id-1", text("one"));
    await bus.transport.publish(subject, "id-2", text("two"));
    await bus.transport.publish(subject, "id-1", text("one again"));
    await bus.transport.publish(subject, "id-3", text("three"));
    await waitFor(() => got.length >= 3, "three messages");
    await settle();
    expect(got).toEqual(["one", "two", "three"]);
    await waitFor(async () => (await bus.transport.pending("d1")) === 0, "no lag");
  });

  it("delivers only the subjects a durable asked for", async () => {
    const got: string[] = [];
    await subscribe("d2", [`${bus.prefix}.user.registered`, `${bus.prefix}.document.approved`], async (m) => {
      got.push(m.subject);
      await m.ack();
    });
    for (const verb of ["user.registered", "user.updated", "document.approved"]) {
      await bus.transport.publish(`${bus.prefix}.${verb}`, `id-${verb}`, text(verb));
    }
    await waitFor(() => got.length >= 2, "two messages");
    await settle();
    expect(got).toEqual([`${bus.prefix}.user.registered`, `${bus.prefix}.document.approved`]);
  });

  it("redelivers after a nak or a handler error, counting deliveries", async () => {
    const counts: number[] = [];
    const subject = `${bus.prefix}.appointment.scheduled`;
    await subscribe("d3", [subject], async (m) => {
      counts.push(m.deliveryCount);
      if (m.deliveryCount === 1) return m.nak(20);
      if (m.deliveryCount === 2) throw new Error("flaky handler");
      await m.ack();
    });
    await bus.transport.publish(subject, "id-r", text("r"));
    await waitFor(() => counts.length >= 3, "three deliveries");
    await settle();
    expect(counts).toEqual([1, 2, 3]);
  });

  it("gives up after maxDeliver deliveries and stops after a term", async () => {
    const failing: number[] = [];
    const terminated: number[] = [];
    await subscribe("d4", [`${bus.prefix}.document.rejected`], async (m) => {
      failing.push(m.deliveryCount);
      await m.nak(10);
    });
    await subscribe("d5", [`${bus.prefix}.document.rejected`], async (m) => {
      terminated.push(m.deliveryCount);
      await m.term();
    });
    await bus.transport.publish(`${bus.prefix}.document.rejected`, "id-x", text("x"));
    await waitFor(() => failing.length >= 3, "three failed deliveries");
    await settle(400);
    expect(failing).toEqual([1, 2, 3]);
    expect(terminated).toEqual([1]);
  });

  it("keeps a durable's position across stop and subscribe, and redelivers what was left unsettled", async () => {
    const subject = `${bus.prefix}.user.updated`;
    const first: string[] = [];
    const sub = await subscribe("d6", [subject], async (m) => {
      first.push(read(m.data));
      if (read(m.data) === "a") await m.ack();
      // "b" is left unsettled: the process went away before acking it
    });
    await bus.transport.publish(subject, "id-a", text("a"));
    await bus.transport.publish(subject, "id-b", text("b"));
    await waitFor(() => first.length >= 2, "a and b");
    await sub.stop();
    await bus.transport.publish(subject, "id-c", text("c"));
    const second: string[] = [];
    await subscribe("d6", [subject], async (m) => {
      second.push(read(m.data));
      await m.ack();
    });
    await waitFor(() => second.length >= 2, "b again and c", 10000);
    await settle();
    expect(first.slice(0, 2)).toEqual(["a", "b"]);
    expect([...second].sort()).toEqual(["b", "c"]);
  });

  it("reports the lag of a durable", async () => {
    const subject = `${bus.prefix}.esrt.user_synced`;
    let release = false;
    const acked: string[] = [];
    await subscribe("d7", [subject], async (m) => {
      await waitFor(() => release, "release");
      acked.push(read(m.data));
      await m.ack();
    });
    for (const n of [1, 2, 3]) await bus.transport.publish(subject, `id-${n}`, text(String(n)));
    await waitFor(async () => (await bus.transport.pending("d7")) === 3, "lag of 3");
    release = true;
    await waitFor(() => acked.length === 3, "all acked");
    await waitFor(async () => (await bus.transport.pending("d7")) === 0, "lag of 0");
  });
});

describe("jetstream transport recovery", () => {
  it("recreates a deleted consumer and a deleted stream and resumes consuming", async () => {
    const { stream, prefix } = uniqueBus();
    const transport = await jetStreamTransport({ nc, stream, subjectPrefix: prefix });
    const subject = `${prefix}.user.registered`;
    const got: string[] = [];
    const sub = await transport.subscribe({
      durable: "survivor",
      subjects: [subject],
      maxDeliver: 3,
      backoffMs: [50],
      handler: async (m) => {
        got.push(read(m.data));
        await m.ack();
      },
    });
    try {
      const jsm = await jetstreamManager(nc);
      await transport.publish(subject, "m1", text("m1"));
      await waitFor(() => got.includes("m1"), "m1");

      await jsm.consumers.delete(stream, "survivor");
      await transport.publish(subject, "m2", text("m2"));
      await waitFor(() => got.includes("m2"), "m2 after the consumer was deleted", 15000);

      await jsm.streams.delete(stream);
      await transport.publish(subject, "m3", text("m3"));
      await waitFor(() => got.includes("m3"), "m3 after the stream was deleted", 15000);
      expect(got.filter((g) => g === "m3")).toHaveLength(1);
    } finally {
      await sub.stop();
      await transport.close();
      await deleteStream(nc, stream);
    }
  }, 40000);
});

describe("subjectMatches", () => {
  it("follows NATS wildcards", () => {
    expect(subjectMatches("p.user.*", "p.user.registered")).toBe(true);
    expect(subjectMatches("p.>", "p.user.registered")).toBe(true);
    expect(subjectMatches("p.user.registered", "p.user.updated")).toBe(false);
    expect(subjectMatches("p.*", "p.user.registered")).toBe(false);
    expect(subjectMatches("p.>", "p")).toBe(false);
  });
});
