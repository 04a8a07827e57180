import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";

export interface AppointmentFigures {
  /** live (pending or confirmed) appointments on today's business day */
  today: number;
  /** live appointments in this business week, Monday to Sunday */
  thisWeek: number;
  /** of those this week, the ones still pending confirmation */
  pendingThisWeek: number;
}

/**
 * Appointments today and this week in the business time zone (America/Los_Angeles), as of `now`,
 * cancelled ones left out; for the admin dashboard.
 * @throws the database driver's error.
 */
export async function appointmentFigures(props: { db: Db; now?: Date }): Promise<AppointmentFigures> {
  const now = DateTime.fromJSDate(props.now ?? new Date(), { zone: BUSINESS_TIME_ZONE });
  const dayStart = now.startOf("day");
  const dayEnd = dayStart.plus({ days: 1 });
  const weekStart = now.startOf("week");
  const weekEnd = weekStart.plus({ weeks: 1 });
  const [row] = await props.db.prisma.$queryRaw<AppointmentFigures[]>`
    SELECT count(*) FILTER (WHERE "dateTime" >= ${dayStart.toJSDate()} AND "dateTime" < ${dayEnd.toJSDate()})::int AS today,
           count(*)::int AS "thisWeek",
           count(*) FILTER (WHERE status = 'pending')::int AS "pendingThisWeek"
    FROM appointments
    WHERE status <> 'cancelled' AND "dateTime" >= ${weekStart.toJSDate()} AND "dateTime" < ${weekEnd.toJSDate()}`;
  return row ?? { today: 0, thisWeek: 0, pendingThisWeek: 0 };
}
