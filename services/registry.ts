import type { NatsConnection } from "@nats-io/transport-node";
import * as appointment from "@services/appointment";
import * as document from "@services/document";
import * as email from "@services/email";
import * as esrtSync from "@services/esrt-sync";
import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import * as user from "@services/user";

/** The portal's services, by the name WORKERS and the docker-compose workers use. */
export const services = {
  user,
  document,
  appointment,
  email,
  "esrt-sync": esrtSync,
} as const;

export type ServiceName = keyof typeof services;

/** Background work a service runs beside its consumers (e.g. the email sender). */
export type StartWorker = (props: { db: Db; nc?: NatsConnection }) => Promise<{ stop(): Promise<void> }>;

/** What a process runs for a WORKERS value. */
export interface Workload {
  consumers: Consumer[];
  workers: StartWorker[];
}

/** Whether `name` is one of the portal's services. */
export function isServiceName(name: string): name is ServiceName {
  return Object.hasOwn(services, name);
}

/**
 * The services a WORKERS value names: "all", "none" or a comma-separated list.
 * @throws Error naming an unknown service.
 */
export function serviceNamesFor(workers: string): ServiceName[] {
  if (workers === "none") return [];
  if (workers === "all") return Object.keys(services) as ServiceName[];
  return workers.split(",").map((name) => {
    if (!isServiceName(name)) {
      throw new Error(
        `WORKERS names an unknown service "${name}" (known: ${Object.keys(services).join(", ")})`,
      );
    }
    return name;
  });
}

/**
 * The consumers and background workers a process runs for a WORKERS value.
 * @throws Error naming an unknown service.
 */
export function workloadFor(workers: string): Workload {
  const names = serviceNamesFor(workers);
  return {
    consumers: names.flatMap((name) => services[name].consumers),
    workers: names.flatMap((name) => {
      const service = services[name];
      return "startWorkers" in service ? [service.startWorkers] : [];
    }),
  };
}
