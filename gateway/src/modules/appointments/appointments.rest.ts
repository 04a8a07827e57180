import { permissionsOf } from "@gateway/auth/permissions";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parsePathId } from "@gateway/input";
import {
  adminCancelAppointment,
  adminListAppointments,
  bookAppointment,
  cancelMyAppointment,
  confirmAppointment,
  getAvailability,
  listMyAppointments,
  rescheduleAppointment,
} from "@services/appointment";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import { type Request, Router } from "express";
import { requireUser } from "../identity/session";

const FORBIDDEN_MESSAGE = "You don't have the necessary permissions to access this area.";

/** Whether a user holds manage:appointments. */
export function managesAppointments(user: Pick<User, "userType">): boolean {
  return permissionsOf(user.userType).includes("manage:appointments");
}

/**
 * The signed-in user holding manage:appointments.
 * @throws AppError UNAUTHENTICATED signed out, FORBIDDEN without the permission.
 */
function requireManager(res: Parameters<typeof requireUser>[0]): User {
  const user = requireUser(res);
  if (!managesAppointments(user)) throw new AppError("FORBIDDEN", FORBIDDEN_MESSAGE);
  return user;
}

/**
 * The id of the `:id` route parameter (the shared idSchema: 1 to 2147483647).
 * @throws AppError NOT_FOUND otherwise: such a path names no appointment.
 */
function appointmentId(req: Request): number {
  return parsePathId(req.params.id, "Appointment not found");
}

/** A query parameter as one string, or undefined. */
function queryString(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * REST shims for appointments: POST /appointments (spec §7), GET /appointments/mine,
 * GET /appointments/availability, POST /appointments/:id/cancel, and for manage:appointments
 * GET /admin/appointments, POST /admin/appointments/:id/confirm, /cancel and /reschedule.
 */
export function appointmentsRouter(deps: { db: Db; config: Config }): Router {
  const router = Router();
  const guard = csrfGuard(deps.config);
  const db = deps.db;

  router.post(
    "/appointments",
    guard,
    handle(async (req, res) => {
      const user = requireUser(res);
      const body: unknown = req.body;
      const appointment = await bookAppointment({
        db,
        actor: { id: user.id, manages: managesAppointments(user) },
        input: body,
        // the body's timeZone, else the X-Time-Zone header; the use case validates either
        timeZone:
          typeof body === "object" && body !== null && "timeZone" in body
            ? body.timeZone
            : (req.get("x-time-zone") ?? null),
      });
      res.status(201).json(appointment);
    }),
  );

  router.get(
    "/appointments/mine",
    handle(async (_req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const user = requireUser(res);
      res.json(await listMyAppointments({ db, userId: user.id }));
    }),
  );

  router.get(
    "/appointments/availability",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      requireUser(res);
      const from = queryString(req, "from") ?? "";
      res.json(await getAvailability({ db, from, to: queryString(req, "to") }));
    }),
  );

  router.post(
    "/appointments/:id/cancel",
    guard,
    handle(async (req, res) => {
      const user = requireUser(res);
      res.json(await cancelMyAppointment({ db, userId: user.id, appointmentId: appointmentId(req) }));
    }),
  );

  router.get(
    "/admin/appointments",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      requireManager(res);
      const filters = Object.fromEntries(
        ["from", "to", "status", "userId", "sort"].map((name) => [name, queryString(req, name)]),
      );
      res.json(await adminListAppointments({ db, filters }));
    }),
  );

  router.post(
    "/admin/appointments/:id/confirm",
    guard,
    handle(async (req, res) => {
      const admin = requireManager(res);
      res.json(await confirmAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req) }));
    }),
  );

  router.post(
    "/admin/appointments/:id/cancel",
    guard,
    handle(async (req, res) => {
      const admin = requireManager(res);
      const body: unknown = req.body;
      const reason = typeof body === "object" && body !== null && "reason" in body ? body.reason : undefined;
      res.json(
        await adminCancelAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req), reason }),
      );
    }),
  );

  router.post(
    "/admin/appointments/:id/reschedule",
    guard,
    handle(async (req, res) => {
      const admin = requireManager(res);
      const body: unknown = req.body;
      const dateTime =
        typeof body === "object" && body !== null && "dateTime" in body ? body.dateTime : undefined;
      res.json(
        await rescheduleAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req), dateTime }),
      );
    }),
  );

  return router;
}
