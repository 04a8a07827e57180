import { builder } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { runIdentity } from "@gateway/graphql/run";
import { parseId } from "@gateway/input";
import { APPOINTMENT_STATUSES, APPOINTMENT_TYPES } from "@schema/validation/appointment";
import type { AppointmentView } from "@services/appointment";
import {
  type AvailabilityDay,
  type AvailabilitySlot,
  adminCancelAppointment,
  adminListAppointments,
  bookAppointment,
  cancelMyAppointment,
  confirmAppointment,
  getAvailability,
  listMyAppointments,
  rescheduleAppointment,
} from "@services/appointment";
import { AppError } from "@services/shared/errors";

export const AppointmentTypeEnum = builder.enumType("AppointmentType", { values: APPOINTMENT_TYPES });
export const AppointmentStatusEnum = builder.enumType("AppointmentStatus", { values: APPOINTMENT_STATUSES });

/** An appointment with its client's name and email. */
export const AppointmentRef = builder.objectRef<AppointmentView>("Appointment").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    userId: t.exposeInt("userId"),
    appointmentType: t.field({ type: AppointmentTypeEnum, resolve: (a) => a.appointmentType }),
    dateTime: t.field({ type: "DateTime", resolve: (a) => a.dateTime }),
    status: t.field({ type: AppointmentStatusEnum, resolve: (a) => a.status }),
    notes: t.exposeString("notes", { nullable: true }),
    cancelReason: t.exposeString("cancelReason", { nullable: true }),
    timeZone: t.exposeString("timeZone", { nullable: true }),
    sequence: t.exposeInt("sequence"),
    createdAt: t.field({ type: "DateTime", resolve: (a) => a.createdAt }),
    clientFirstName: t.string({ resolve: (a) => a.client.firstName }),
    clientLastName: t.string({ resolve: (a) => a.client.lastName }),
    clientEmail: t.string({ resolve: (a) => a.client.email }),
  }),
});

const AvailabilitySlotRef = builder.objectRef<AvailabilitySlot>("AvailabilitySlot").implement({
  description: "A bookable slot: its start, its business-time label, and whether someone holds it.",
  fields: (t) => ({
    dateTime: t.field({ type: "DateTime", resolve: (s) => s.dateTime }),
    time: t.exposeString("time", { description: 'business time, "09:00"' }),
    label: t.exposeString("label", { description: 'business time, "9:00 AM"' }),
    taken: t.exposeBoolean("taken"),
  }),
});

const AvailabilityDayRef = builder.objectRef<AvailabilityDay>("AvailabilityDay").implement({
  description: "One business day (America/Los_Angeles) and its bookable slots.",
  fields: (t) => ({
    date: t.exposeString("date", { description: "YYYY-MM-DD" }),
    slots: t.field({ type: [AvailabilitySlotRef], resolve: (d) => d.slots }),
  }),
});

builder.queryField("myAppointments", (t) =>
  t.field({
    type: [AppointmentRef],
    description: "The signed-in user's upcoming appointments, soonest first.",
    authScopes: { loggedIn: true },
    resolve: (_root, _args, ctx) => listMyAppointments({ db: ctx.db, userId: caller(ctx).id }),
  }),
);

builder.queryField("appointmentAvailability", (t) =>
  t.field({
    type: [AvailabilityDayRef],
    description:
      "Bookable slots of each business day from `from` to `to` (YYYY-MM-DD, inclusive, at most 62 days), taken ones marked.",
    authScopes: { loggedIn: true },
    args: { from: t.arg.string({ required: true }), to: t.arg.string() },
    resolve: (_root, args, ctx) =>
      runIdentity(() => getAvailability({ db: ctx.db, from: args.from, to: args.to ?? undefined })),
  }),
);

builder.queryField("adminAppointments", (t) =>
  t.field({
    type: [AppointmentRef],
    description: "Appointments filtered by business dates (YYYY-MM-DD), status and user, sorted.",
    authScopes: { manageAppointments: true },
    args: {
      from: t.arg.string(),
      to: t.arg.string(),
      status: t.arg({ type: AppointmentStatusEnum }),
      userId: t.arg.int(),
      sort: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        adminListAppointments({
          db: ctx.db,
          filters: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)),
        }),
      ),
  }),
);

builder.mutationField("bookAppointment", (t) =>
  t.field({
    type: AppointmentRef,
    description:
      "Books a pending consultation for the signed-in user (or, with manage:appointments, for userId).",
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: {
      userId: t.arg.int(),
      appointmentType: t.arg.string({ required: true }),
      dateTime: t.arg.string({ required: true }),
      notes: t.arg.string(),
      timeZone: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        bookAppointment({
          db: ctx.db,
          actor: caller(ctx),
          input: {
            userId: args.userId ?? undefined,
            appointmentType: args.appointmentType,
            dateTime: args.dateTime,
            notes: args.notes,
          },
          timeZone: args.timeZone,
        }),
      ),
  }),
);

builder.mutationField("cancelMyAppointment", (t) =>
  t.field({
    type: AppointmentRef,
    description: "Cancels one of the signed-in user's upcoming appointments.",
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        cancelMyAppointment({ db: ctx.db, userId: caller(ctx).id, appointmentId: parseId(args.id) }),
      ),
  }),
);

builder.mutationField("confirmAppointment", (t) =>
  t.field({
    type: AppointmentRef,
    description: "Confirms a pending upcoming appointment.",
    authScopes: { manageAppointments: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        confirmAppointment({ db: ctx.db, adminId: caller(ctx).id, appointmentId: parseId(args.id) }),
      ),
  }),
);

builder.mutationField("adminCancelAppointment", (t) =>
  t.field({
    type: AppointmentRef,
    description: "Cancels an upcoming appointment with a reason the client will read.",
    authScopes: { manageAppointments: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        adminCancelAppointment({
          db: ctx.db,
          adminId: caller(ctx).id,
          appointmentId: parseId(args.id),
          reason: args.reason,
        }),
      ),
  }),
);

builder.mutationField("rescheduleAppointment", (t) =>
  t.field({
    type: AppointmentRef,
    description: "Moves an upcoming appointment to another free, valid slot.",
    authScopes: { manageAppointments: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), dateTime: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        rescheduleAppointment({
          db: ctx.db,
          adminId: caller(ctx).id,
          appointmentId: parseId(args.id),
          dateTime: args.dateTime,
        }),
      ),
  }),
);
