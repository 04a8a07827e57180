import type { ReactNode } from "react";
import { AppointmentScheduler, WhyScheduleCard } from "./AppointmentScheduler";
import { MyAppointmentsList } from "./MyAppointmentsList";

/** The form, the user's appointments under it, and the side cards (why schedule, then `aside`). */
export function AppointmentsPanel({ aside }: { aside?: ReactNode }) {
  return (
    <div className="appointments-layout">
      <div>
        <AppointmentScheduler />
        <MyAppointmentsList />
      </div>
      <div className="appointments-side">
        <WhyScheduleCard />
        {aside}
      </div>
    </div>
  );
}
