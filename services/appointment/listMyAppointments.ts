import type { Db } from "@services/shared/db";
import { type AppointmentView, presentAppointment, withUsers } from "./present";

/**
 * The signed-in user's upcoming appointments (pending or confirmed, after `now`), soonest first.
 * Never throws for an unknown user (the list is empty).
 */
export async function listMyAppointments(props: {
  db: Db;
  userId: number;
  now?: Date;
}): Promise<AppointmentView[]> {
  const now = props.now ?? new Date();
  const rows = await props.db.prisma.appointment.findMany({
    where: { userId: props.userId, status: { in: ["pending", "confirmed"] }, dateTime: { gt: now } },
    orderBy: { dateTime: "asc" },
  });
  return (await withUsers(props.db, rows)).map(presentAppointment);
}
