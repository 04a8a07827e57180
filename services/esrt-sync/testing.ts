import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ProAppPayload, proAppPayloadSchema } from "@schema/esrt/contract";
import { config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { type Consumer, type RunningConsumers, startConsumers } from "@services/shared/events/consumer";
import { memoryTransport } from "@services/shared/events/memory";
import { type Relay, startRelay } from "@services/shared/events/relay";
import { eventsDatabase, takeUniqueBus } from "@services/shared/events/testing/world";
import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { changeAccessLevel, esrtSyncStateConsumer } from "@services/user";
import { Webhook } from "standardwebhooks";
import { userSnapshotsConsumer } from "./consumers/userSnapshots";

// Test support for the sync service: a database of the test file's own (the dispatcher claims every
// due delivery), the real relay and consumers on the in-process bus, and a receiver standing in for
// the Pro app that verifies each webhook with the standardwebhooks library.

/** A database with the relay and the sync and user consumers running on it. */
export interface SyncWorld {
  db: Db;
  /** the database's connection URL (for a process of its own) */
  url: string;
  admin: User;
  /** a user made by the factory, then registered with the sync service by an access-level change */
  newUser(): Promise<User>;
  /** changes a user (flips their access level): a new version the Pro app must receive */
  change(user: User): Promise<User>;
  close(): Promise<void>;
}

export async function syncWorld(extraConsumers: Consumer[] = []): Promise<SyncWorld> {
  takeUniqueBus();
  setConfig({ ...config(), ESRT_NATS: false, ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
  const scratch = await eventsDatabase();
  const { db } = scratch;
  const transport = memoryTransport();
  const relay: Relay = await startRelay({ db, transport });
  const consumers: RunningConsumers = await startConsumers({
    db,
    transport,
    consumers: [userSnapshotsConsumer, esrtSyncStateConsumer, ...extraConsumers],
    backoffMs: [50, 100, 200],
  });
  const admin = await createAdmin(db);
  const change = async (user: User) => {
    const current = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    return changeAccessLevel({
      db,
      actor: { id: admin.id, userType: "mainAdmin" },
      userId: user.id,
      accessLevel: current.accessLevel === "full" ? "limited" : "full",
    });
  };
  return {
    db,
    url: scratch.url,
    admin,
    change,
    async newUser() {
      return change(await createUser(db, { userType: "client" }));
    },
    async close() {
      await relay.stop();
      await consumers.stop();
      await transport.close();
      await scratch.drop();
    },
  };
}

/** A message the receiver accepted. */
export interface Received {
  id: string;
  payload: ProAppPayload;
  at: number;
}

export type ReceiverMode =
  | { kind: "ok" }
  | { kind: "status"; status: number; headers?: Record<string, string> }
  | { kind: "hang" };

/** An HTTP receiver standing in for the Pro app: verifies signatures with the standardwebhooks library. */
export interface TestReceiver {
  url: string;
  received: Received[];
  /** every request, accepted or not: [webhook-id, answered status] */
  requests: { id: string; status: number | null; at: number }[];
  mode: ReceiverMode;
  /** ends the requests left hanging (their senders see the connection reset) */
  releaseHanging(): void;
  /** stops answering connections (refused) until started again */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function testReceiver(secret: () => string): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: "",
    received: [],
    requests: [],
    mode: { kind: "ok" },
    releaseHanging: () => undefined,
    stop: async () => undefined,
    start: async () => undefined,
    close: async () => undefined,
  };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      const mode = receiver.mode;
      const entry = { id, status: null as number | null, at: Date.now() };
      receiver.requests.push(entry);
      if (mode.kind === "hang") {
        hanging.add(res);
        return;
      }
      let payload: ProAppPayload;
      try {
        payload = proAppPayloadSchema.parse(
          new Webhook(secret()).verify(body, {
            "webhook-id": id,
            "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
            "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
          }),
        );
      } catch {
        entry.status = 401;
        res.writeHead(401).end("bad signature");
        return;
      }
      if (mode.kind === "status") {
        entry.status = mode.status;
        res.writeHead(mode.status, mode.headers).end(`answer ${mode.status}`);
        return;
      }
      entry.status = 204;
      receiver.received.push({ id, payload, at: Date.now() });
      res.writeHead(204).end();
    });
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = async () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();
  receiver.url = `http://127.0.0.1:${port}/webhooks`;
  receiver.stop = stop;
  receiver.releaseHanging = () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
  };
  receiver.start = listen;
  receiver.close = async () => {
    if (server.listening) await stop();
  };
  return receiver;
}
