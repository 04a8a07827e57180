import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { startPeriodicSweep } from "@services/shared/jobs/periodicSweep";
import { eventFields, withUsers } from "./present";

/** A reminder goes out this long before an appointment starts. */
export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;

/**
 * The reminderSentAt an appointment starting at `dateTime` gets when it is booked at `now`: already
 * inside the 24-hour window, the booking's own email is the reminder (`now`); otherwise null, for
 * the sweep to claim later. (A reschedule always clears it: the new time gets its own reminder.)
 */
export function reminderSentAtFor(dateTime: Date, now: Date): Date | null {
  return dateTime.getTime() - now.getTime() <= REMINDER_LEAD_MS ? now : null;
}

/**
 * Claims the reminders due at `now` (live appointments starting within 24 hours whose reminder has
 * not been claimed) and writes appointment.reminder_due for each, in one transaction. The claim is
 * an UPDATE ... WHERE "reminderSentAt" IS NULL over rows locked with SKIP LOCKED: any number of
 * sweeps may run at once, in any number of processes, and each reminder is claimed exactly once.
 * @returns the number of reminders claimed.
 * @throws when the database refuses the transaction (nothing is claimed then).
 */
export async function claimDueReminders(props: { db: Db; now?: Date; batchSize?: number }): Promise<number> {
  const now = props.now ?? new Date();
  const until = new Date(now.getTime() + REMINDER_LEAD_MS);
  const batchSize = props.batchSize ?? 100;
  return props.db.prisma.$transaction(async (tx) => {
    const claimed = await tx.$queryRaw<{ id: number }[]>`
      UPDATE appointments SET "reminderSentAt" = ${now}
      WHERE id IN (
        SELECT id FROM appointments
        WHERE status IN ('pending', 'confirmed') AND "reminderSentAt" IS NULL
          AND "dateTime" > ${now} AND "dateTime" <= ${until}
        ORDER BY "dateTime", id LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    if (claimed.length === 0) return 0;
    const rows = await withUsers(
      tx,
      await tx.appointment.findMany({
        where: { id: { in: claimed.map((c) => c.id) } },
        orderBy: { dateTime: "asc" },
      }),
    );
    for (const row of rows) {
      await emit(
        tx,
        { type: "appointment.reminder_due", payload: { ...eventFields(row), claimedAt: now.toISOString() } },
        { actor: { kind: "system" } },
      );
    }
    return rows.length;
  });
}

/**
 * Runs claimDueReminders now and every `intervalMs` until stopped (a tick that finds a sweep still
 * running is skipped); a failed sweep is logged and the next one tries again. stop() waits for a
 * sweep in progress.
 */
export function startReminderSweep(props: { db: Db; intervalMs: number }): { stop(): Promise<void> } {
  return startPeriodicSweep({
    name: "appointment.reminders",
    intervalMs: props.intervalMs,
    sweep: () => claimDueReminders({ db: props.db }),
    report: (count, log) => {
      if (count > 0) log.info({ count }, "appointment reminders claimed");
    },
    failure: "appointment reminder sweep failed",
  });
}
