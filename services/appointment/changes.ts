import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import type { Appointment, Prisma } from "@services/shared/generated/prisma/client";
import { AppointmentError } from "./errors";
import { type AppointmentWithUser, lockAppointment } from "./present";

/** What a change to one appointment takes: the database, the appointment, and when (default now). */
export interface AppointmentChangeProps {
  db: Db;
  appointmentId: number;
  now?: Date;
}

/**
 * Refuses a change to an appointment that is cancelled or no longer upcoming at `now`.
 * @throws AppointmentError NOT_CHANGEABLE with the message for the case.
 */
export function assertUpcoming(
  row: Pick<Appointment, "status" | "dateTime">,
  now: Date,
  messages: { cancelled: string; past: string },
): void {
  if (row.status === "cancelled") throw new AppointmentError("NOT_CHANGEABLE", messages.cancelled);
  if (row.dateTime.getTime() <= now.getTime()) throw new AppointmentError("NOT_CHANGEABLE", messages.past);
}

/**
 * Writes a change to a locked appointment, raising its sequence (calendars replace the invitation);
 * the answer keeps the client's contact read when the row was locked, in the same transaction.
 */
export async function updateAppointment(
  tx: Tx,
  row: AppointmentWithUser,
  data: Omit<Prisma.AppointmentUpdateInput, "sequence">,
): Promise<AppointmentWithUser> {
  const updated = await tx.appointment.update({
    where: { id: row.id },
    data: { ...data, sequence: { increment: 1 } },
  });
  return { ...updated, user: row.user };
}

/**
 * Records an administrator's change to an appointment in the audit log; metadata defaults to the
 * appointment's client and time.
 * @throws Prisma errors when the row cannot be written.
 */
export function auditAppointment(
  tx: Tx,
  action: string,
  adminId: number,
  row: Appointment,
  change: { before: Prisma.InputJsonValue; after: Prisma.InputJsonValue; metadata?: Prisma.InputJsonValue },
): Promise<void> {
  const metadata = change.metadata ?? { userId: row.userId, dateTime: row.dateTime.toISOString() };
  const { before, after } = change;
  return audit(tx, {
    action,
    actorId: adminId,
    targetType: "appointment",
    targetId: row.id,
    before,
    after,
    metadata,
  });
}

/** Why a cancellation is refused, the same for a client's and an administrator's. */
export const CANCEL_REFUSALS = {
  cancelled: "This appointment is already cancelled.",
  past: "Only upcoming appointments can be cancelled.",
} as const;

/**
 * Runs a change to one appointment in a transaction, the appointment locked first; `now` is
 * props.now or the present.
 * @throws AppointmentError APPOINTMENT_NOT_FOUND; whatever the change throws.
 */
export function changeLockedAppointment<T>(
  props: AppointmentChangeProps,
  change: (tx: Tx, row: AppointmentWithUser, now: Date) => Promise<T>,
): Promise<T> {
  const now = props.now ?? new Date();
  return props.db.prisma.$transaction(async (tx) =>
    change(tx, await lockAppointment(tx, props.appointmentId), now),
  );
}
