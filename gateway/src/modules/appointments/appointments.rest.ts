import { requireCaller, requirePermitted } from "@gateway/auth/actor";
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
import { type Request, Router } from "express";

/**
 * The id of the `:id` route parameter (the shared idSchema: 1 to 2147483647).
 * @throws AppError NOT_FOUND otherwise: such a path names no appointment.
 */
function appointmentId(req: Request): number {
  return parsePathId(req.params.id, "Appointment not found");
}

/** The JSON body's `name` as sent (the use case validates it), or undefined when the body has none. */
function bodyField(req: Request, name: string): unknown {
  const body: unknown = req.body;
  return typeof body === "object" && body !== null && name in body
    ? (body as Record<string, unknown>)[name]
    : undefined;
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
      const actor = requireCaller(res);
      const body: unknown = req.body;
      const appointment = await bookAppointment({
        db,
        actor,
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
      const user = requireCaller(res);
      res.json(await listMyAppointments({ db, userId: user.id }));
    }),
  );

  router.get(
    "/appointments/availability",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      requireCaller(res);
      const from = queryString(req, "from") ?? "";
      res.json(await getAvailability({ db, from, to: queryString(req, "to") }));
    }),
  );

  router.post(
    "/appointments/:id/cancel",
    guard,
    handle(async (req, res) => {
      const user = requireCaller(res);
      res.json(await cancelMyAppointment({ db, userId: user.id, appointmentId: appointmentId(req) }));
    }),
  );

  router.get(
    "/admin/appointments",
    handle(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      requirePermitted(res, "manage:appointments");
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
      const admin = requirePermitted(res, "manage:appointments");
      res.json(await confirmAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req) }));
    }),
  );

  router.post(
    "/admin/appointments/:id/cancel",
    guard,
    handle(async (req, res) => {
      const admin = requirePermitted(res, "manage:appointments");
      const reason = bodyField(req, "reason");
      res.json(
        await adminCancelAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req), reason }),
      );
    }),
  );

  router.post(
    "/admin/appointments/:id/reschedule",
    guard,
    handle(async (req, res) => {
      const admin = requirePermitted(res, "manage:appointments");
      const dateTime = bodyField(req, "dateTime");
      res.json(
        await rescheduleAppointment({ db, adminId: admin.id, appointmentId: appointmentId(req), dateTime }),
      );
    }),
  );

  return router;
}
