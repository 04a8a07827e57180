/**
 * The appointment service: availability, booking, cancelling and rescheduling consultations, the
 * administrators' appointment console and the 24-hour reminders.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/appointment` only, never a file inside it.
 */
export { adminCancelAppointment } from "./adminCancelAppointment";
export { adminListAppointments, adminListFiltersSchema } from "./adminListAppointments";
export type { AppointmentFigures } from "./appointmentFigures";
export { appointmentFigures } from "./appointmentFigures";
export { bookAppointment } from "./bookAppointment";
export { cancelMyAppointment } from "./cancelMyAppointment";
export { confirmAppointment } from "./confirmAppointment";
export { createDemoAppointments, removeDemoAppointments } from "./demoAppointments";
export type { AppointmentErrorCode } from "./errors";
export { isAppointmentError, SLOT_TAKEN_MESSAGE } from "./errors";
export type { AvailabilityDay, AvailabilitySlot } from "./getAvailability";
export { getAvailability } from "./getAvailability";
export { listMyAppointments } from "./listMyAppointments";
export type { AppointmentActor, AppointmentView } from "./present";
export { claimDueReminders } from "./reminders";
export { rescheduleAppointment } from "./rescheduleAppointment";

// The worker entry: the service's event consumers and background work (services/registry.ts).
export { consumers, startWorkers } from "./worker";
