import type { AppointmentStatusName, AppointmentTypeName } from "@schema/validation/appointment";
import { idSchema } from "@schema/validation/primitives";
import type { Db, Tx } from "@services/shared/db";
import type { Appointment } from "@services/shared/generated/prisma/client";
import { type UserContact, withUserContacts } from "@services/user";
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

/** An appointment row with its client's contact, read through the user service's face. */
export type AppointmentWithUser = Appointment & { user: UserContact };

/**
 * Rows with their clients' contacts, read in one query through the user service's face (the users
 * table is the user service's; docs/DECISIONS.md, Services own their tables), in the rows' order.
 * A row whose user is gone is left out: it is being deleted with its user (the foreign key cascades).
 */
export function withUsers(client: Tx | Db, rows: readonly Appointment[]): Promise<AppointmentWithUser[]> {
  return withUserContacts(client, rows, "user");
}

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
  const found = locked.length > 0 ? await tx.appointment.findUnique({ where: { id } }) : null;
  const [row] = found ? await withUsers(tx, [found]) : [];
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
