import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";

// The appointment form in the browser (web/src/components/appointments), as a user drives it.

/**
 * A business date 49 to 59 days on, on `weekday` (1 = Monday … 5 = Friday), with no live
 * appointment yet. Other test files book random slots up to 30 days ahead and the REST tests about
 * 45 days ahead, so these days are the browser tests' own; each test file asks for other weekdays.
 * @throws when every such day holds a booking.
 */
export async function freeWeekday(db: Db, weekday: 1 | 2 | 3 | 4 | 5): Promise<string> {
  const today = DateTime.now().setZone(BUSINESS_TIME_ZONE).startOf("day");
  for (let offset = 49; offset <= 59; offset++) {
    const day = today.plus({ days: offset });
    if (day.weekday !== weekday) continue;
    const booked = await db.prisma.appointment.count({
      where: {
        dateTime: { gte: day.toJSDate(), lt: day.plus({ days: 1 }).toJSDate() },
        status: { not: "cancelled" },
      },
    });
    if (booked === 0) return day.toISODate() ?? "";
  }
  throw new Error(`no free weekday ${weekday} 49 to 59 days ahead`);
}

/** The appointment form of the page (console tab or /appointments). */
export const consoleForm = (page: Page) => page.getByRole("form", { name: "Schedule an appointment" });

/** The form's time selector. */
export const timeSelect = (page: Page) => consoleForm(page).getByLabel("Time (Pacific time)");

/** Picks a business date in the date picker (moving to its month and year) and waits for its slots. */
export async function pickDate(page: Page, date: string): Promise<void> {
  const day = DateTime.fromISO(date);
  const picker = consoleForm(page).locator(".bp6-datepicker");
  await picker.locator(".bp6-datepicker-year-select select").selectOption(String(day.year));
  await picker.locator(".bp6-datepicker-month-select select").selectOption(String(day.month - 1));
  await picker
    .locator('button[name="day"]:not(.rdp-day_outside)', { hasText: new RegExp(`^${day.day}$`) })
    .click();
  await timeSelect(page).locator("option", { hasText: "9:00 AM" }).waitFor({ state: "attached" });
}

/** Fills the form (date, time label such as "10:30 AM", type label) and presses Schedule Appointment. */
export async function book(page: Page, date: string, time: string, type = "Zoom"): Promise<void> {
  await pickDate(page, date);
  await timeSelect(page).selectOption({ label: time });
  // Blueprint draws the radio over its input: click the label, as a user does
  await consoleForm(page).locator("label.bp6-radio", { hasText: type }).click();
  if (!(await consoleForm(page).getByLabel(type).isChecked())) throw new Error(`${type} is not selected`);
  await consoleForm(page).getByRole("button", { name: "Schedule Appointment" }).click();
}
