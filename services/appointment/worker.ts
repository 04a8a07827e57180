import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import { roundTripConsumer } from "@services/shared/events/roundTrip";
import { startReminderSweep } from "./reminders";

/**
 * The appointment service: consultation booking and its administration.
 * Its event consumers, started by a process whose WORKERS setting names "appointment" (or "all").
 */
export const consumers: Consumer[] = [roundTripConsumer("appointment")];

/**
 * The service's background work: the sweep that claims the reminders due 24 hours before each
 * appointment (every APPOINTMENT_REMINDER_INTERVAL_MS; any number of processes may run it).
 */
export async function startWorkers(props: { db: Db }): Promise<{ stop(): Promise<void> }> {
  return startReminderSweep({ db: props.db, intervalMs: config().APPOINTMENT_REMINDER_INTERVAL_MS });
}
