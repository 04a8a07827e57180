import { APPOINTMENT_STATUSES, BUSINESS_TIME_ZONE, businessDateSchema } from "@schema/validation/appointment";
import { id } from "@schema/validation/primitives";
import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";
import { z } from "zod";
import { AppointmentError } from "./errors";
import { type AppointmentView, presentAppointment, withUsers } from "./present";

export const APPOINTMENT_SORTS = [
  "dateTime",
  "-dateTime",
  "createdAt",
  "-createdAt",
  "status",
  "-status",
] as const;

/** The admin list's filters (query parameters of GET /api/admin/appointments). */
export const adminListFiltersSchema = z.object({
  /** business dates, inclusive */
  from: businessDateSchema.optional(),
  to: businessDateSchema.optional(),
  status: z
    .enum(APPOINTMENT_STATUSES, { error: "Status must be pending, confirmed or cancelled" })
    .optional(),
  userId: id("userId must be a user's id").optional(),
  sort: z
    .enum(APPOINTMENT_SORTS, { error: `Sort must be one of ${APPOINTMENT_SORTS.join(", ")}` })
    .optional(),
});

const LIST_LIMIT = 500;

/**
 * Appointments for administrators (manage:appointments, checked by the caller), filtered by a
 * business-date range, status and user, sorted (default soonest first), at most 500.
 * @throws AppointmentError INVALID_APPOINTMENT for a filter that does not parse.
 */
export async function adminListAppointments(props: { db: Db; filters: unknown }): Promise<AppointmentView[]> {
  const parsed = adminListFiltersSchema.safeParse(props.filters ?? {});
  if (!parsed.success) {
    throw new AppointmentError("INVALID_APPOINTMENT", parsed.error.issues[0]?.message ?? "Invalid filter");
  }
  const f = parsed.data;
  const day = (d: string) => DateTime.fromISO(d, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const sort = f.sort ?? "dateTime";
  const direction = sort.startsWith("-") ? "desc" : "asc";
  const field = sort.replace("-", "") as "dateTime" | "createdAt" | "status";
  const rows = await props.db.prisma.appointment.findMany({
    where: {
      status: f.status,
      userId: f.userId,
      dateTime: {
        gte: f.from ? day(f.from).toJSDate() : undefined,
        lt: f.to ? day(f.to).plus({ days: 1 }).toJSDate() : undefined,
      },
    },
    orderBy: field === "dateTime" ? [{ dateTime: direction }] : [{ [field]: direction }, { dateTime: "asc" }],
    take: LIST_LIMIT,
  });
  return (await withUsers(props.db, rows)).map(presentAppointment);
}
