import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { USER_TYPES } from "@schema/validation/user";
import { USER_STATUSES } from "@schema/validation/userDirectory";
import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";

// The user service's figures for the admin dashboard (issue 11): read-only counts of its own table.

export interface DayCount {
  /** the business day (America/Los_Angeles), YYYY-MM-DD */
  day: string;
  count: number;
}

export interface UserFigures {
  total: number;
  byType: { userType: (typeof USER_TYPES)[number]; count: number }[];
  byStatus: { userStatus: (typeof USER_STATUSES)[number]; count: number }[];
  /** accounts whose email is not verified yet */
  unverified: number;
  /** new registrations on each of the last `days` business days, oldest first, today last */
  registrations: DayCount[];
}

/**
 * Users by type and by status (every value, zeros included), unverified accounts, and new accounts
 * per business day over the last `days` days (default 30) ending today, as of `now`.
 * @throws the database driver's error.
 */
export async function userFigures(props: { db: Db; now?: Date; days?: number }): Promise<UserFigures> {
  const days = props.days ?? 30;
  const today = DateTime.fromJSDate(props.now ?? new Date(), { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const first = today.minus({ days: days - 1 });
  const [groups, perDay] = await Promise.all([
    props.db.prisma.$queryRaw<
      { userType: string; userStatus: string; verified: boolean; count: number }[]
    >`SELECT "userType"::text AS "userType", "userStatus"::text AS "userStatus",
             "emailVerified" AS verified, count(*)::int AS count
      FROM users GROUP BY 1, 2, 3`,
    props.db.prisma.$queryRaw<DayCount[]>`
      SELECT to_char(("createdAt" AT TIME ZONE ${BUSINESS_TIME_ZONE})::date, 'YYYY-MM-DD') AS day,
             count(*)::int AS count
      FROM users WHERE "createdAt" >= ${first.toJSDate()}
      GROUP BY 1`,
  ]);
  const sum = (keep: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(keep).reduce((n, g) => n + g.count, 0);
  const counted = new Map(perDay.map((d) => [d.day, d.count]));
  return {
    total: sum(() => true),
    byType: USER_TYPES.map((userType) => ({ userType, count: sum((g) => g.userType === userType) })),
    byStatus: USER_STATUSES.map((userStatus) => ({
      userStatus,
      count: sum((g) => g.userStatus === userStatus),
    })),
    unverified: sum((g) => !g.verified),
    registrations: Array.from({ length: days }, (_, i) => {
      const day = first.plus({ days: i }).toISODate() ?? "";
      return { day, count: counted.get(day) ?? 0 };
    }),
  };
}
