import type { AppointmentStatusName, AppointmentTypeName } from "@schema/validation/appointment";
import { idSchema } from "@schema/validation/primitives";
import type { Tx } from "@services/shared/db";
import type { Appointment, User } from "@services/shared/generated/prisma/client";
import { APPOINTMENT_NOT_FOUND_MESSAGE, AppointmentError } from "./errors";

/** An appointment as answers show it (dates as UTC ISO strings), with its client's name and email. */
export interface AppointmentView {
  id: number;
  userId: number;
  appointmentType: AppointmentTypeName;
  dateTime: string;
  status: AppointmentStatusName;
  notes: string | null;
  cancelReason: string | null;
  timeZone: string | null;
  sequence: number;
  createdAt: string;
  updatedAt: string;
  client: { firstName: string; lastName: string; email: string; companyName: string | null };
}

export type AppointmentWithUser = Appointment & { user: User };

/** Who acts on an appointment, as the gateway resolved them. */
export interface AppointmentActor {
  id: number;
  /** holds manage:appointments (books for others, confirms, cancels, reschedules) */
  manages: boolean;
}

/** The answer shape of an appointment row and its user. */
export function presentAppointment(row: AppointmentWithUser): AppointmentView {
  return {
    id: row.id,
    userId: row.userId,
    appointmentType: row.appointmentType,
    dateTime: row.dateTime.toISOString(),
    status: row.status,
    notes: row.notes,
    cancelReason: row.cancelReason,
    timeZone: row.timeZone,
    sequence: row.sequence,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    client: {
      firstName: row.user.firstName,
      lastName: row.user.lastName,
      email: row.user.email,
      companyName: row.user.companyName,
    },
  };
}

/** The fields every appointment event carries (schema/events/appointment.ts). */
export function eventFields(row: AppointmentWithUser) {
  return {
    appointmentId: row.id,
    userId: row.userId,
    email: row.user.email,
    firstName: row.user.firstName,
    lastName: row.user.lastName,
    appointmentType: row.appointmentType,
    dateTime: row.dateTime.toISOString(),
    timeZone: row.timeZone,
    notes: row.notes,
    sequence: row.sequence,
    status: row.status,
  };
}

/**
 * Loads an appointment and its user, locking the row for the rest of the transaction. An id outside
 * the database's range (the shared idSchema) names no appointment and never reaches the database.
 * @throws AppointmentError APPOINTMENT_NOT_FOUND.
 */
export async function lockAppointment(tx: Tx, id: number): Promise<AppointmentWithUser> {
  if (!idSchema.safeParse(id).success) {
    throw new AppointmentError("APPOINTMENT_NOT_FOUND", APPOINTMENT_NOT_FOUND_MESSAGE);
  }
  const locked = await tx.$queryRaw<
    { id: number }[]
  >`SELECT id FROM appointments WHERE id = ${id} FOR UPDATE`;
  const row =
    locked.length > 0 ? await tx.appointment.findUnique({ where: { id }, include: { user: true } }) : null;
  if (!row) throw new AppointmentError("APPOINTMENT_NOT_FOUND", APPOINTMENT_NOT_FOUND_MESSAGE);
  return row;
}

/** Whether `err` is the unique violation of appointments_live_slot_key (Prisma P2002 or pg 23505). */
export function isSlotTaken(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code: unknown = Reflect.get(e, "code");
    if (code === "P2002" || code === "23505") return true;
    const originalCode: unknown = Reflect.get(e, "originalCode");
    if (originalCode === "23505") return true;
    const kind: unknown = Reflect.get(e, "kind");
    if (kind === "UniqueConstraintViolation") return true;
    e = Reflect.get(e, "cause");
  }
  return false;
}
