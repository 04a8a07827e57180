import type { Db } from "@services/shared/db";

export interface EmailFigures {
  /** messages that gave up (status failed) in the last 24 hours */
  failedLast24h: number;
  /** messages waiting to be sent (queued), retries included */
  queued: number;
}

/**
 * The email service's delivery figures for the admin dashboard, as of `now`.
 * @throws Prisma errors.
 */
export async function emailFigures(props: { db: Db; now?: Date }): Promise<EmailFigures> {
  const since = new Date((props.now ?? new Date()).getTime() - 24 * 60 * 60 * 1000);
  const [failedLast24h, queued] = await Promise.all([
    props.db.prisma.emailMessage.count({ where: { status: "failed", updatedAt: { gte: since } } }),
    props.db.prisma.emailMessage.count({ where: { status: "queued" } }),
  ]);
  return { failedLast24h, queued };
}
