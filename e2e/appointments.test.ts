import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { bookAppointment } from "@services/appointment";
import type { User } from "@services/shared/generated/prisma/client";
import { createUser } from "@services/shared/testing/factories";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { book, consoleForm as form, freeWeekday, pickDate, timeSelect } from "./support/appointments";
import { pastTheOverlay, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Booking in the browser (spec §2, §5, §8): the console's Appointments tab and /appointments, the
// date picker and slots in Pacific time, taken slots disabled for everyone, and the per-user limits.

const suite = browserSuite();
const { signedIn } = suite;

/** Opens the console's Appointments tab, past the welcome overlay a new user sees (dismissed, not waited out). */
async function consoleAppointments(user: User): Promise<Page> {
  const page = await signedIn(user, "/dashboard");
  await pastTheOverlay(page);
  await page.getByRole("tab", { name: "Appointments" }).click();
  await form(page).waitFor();
  return page;
}

describe("booking an appointment in the browser", () => {
  it("books a slot from the console, lists it pending, and shows it taken to the next client", async () => {
    const date = await freeWeekday(suite.db(), 2);
    const first = await createUser(suite.db(), { userType: "client", firstName: "Fay" });
    const page = await consoleAppointments(first);
    await form(page).getByLabel("Notes (optional)").fill("Overdue invoices from Q3");
    await form(page).getByText("24/250 characters").waitFor();
    await book(page, date, "10:30 AM");
    await waitForToast(page, "Appointment scheduled Your appointment has been scheduled successfully");
    const listed = page.locator(".my-appointment").filter({ hasText: "10:30 AM" });
    await listed.getByText("Pending").waitFor();
    await listed.getByText("Notes: Overdue invoices from Q3").waitFor();
    // the booked slot is now taken in the first client's own form too
    await pickDate(page, date);
    await expect(timeSelect(page).locator("option", { hasText: "10:30 AM" }).textContent()).resolves.toBe(
      "10:30 AM (taken)",
    );

    const second = await createUser(suite.db(), { userType: "client" });
    const other = await signedIn(second, "/appointments");
    await form(other).waitFor();
    await pickDate(other, date);
    const taken = timeSelect(other).locator("option", { hasText: "10:30 AM" });
    await expect(taken.isDisabled()).resolves.toBe(true);
    await expect(timeSelect(other).locator("option", { hasText: "11:00 AM" }).isDisabled()).resolves.toBe(
      false,
    );
  });

  it("asks for a date and a time before booking", async () => {
    const user = await createUser(suite.db(), { userType: "client" });
    const page = await signedIn(user, "/appointments");
    await form(page).getByRole("button", { name: "Schedule Appointment" }).click();
    await waitForToast(page, "Missing information Please select a date and time for your appointment");
    await expect(suite.db().prisma.appointment.count({ where: { userId: user.id } })).resolves.toBe(0);
  });

  it("refuses a prospect's second upcoming booking with the server's message", async () => {
    const date = await freeWeekday(suite.db(), 4);
    const prospect = await createUser(suite.db(), { userType: "prospect" });
    const page = await consoleAppointments(prospect);
    await book(page, date, "2:00 PM", "Phone call");
    await waitForToast(page, "Appointment scheduled Your appointment has been scheduled successfully");
    await page.locator(".my-appointment").filter({ hasText: "2:00 PM" }).waitFor();

    await book(page, date, "3:00 PM", "Phone call");
    await waitForToast(
      page,
      "Failed to schedule appointment You already have an upcoming appointment. Cancel it or wait until it has taken place before booking another.",
    );
    await expect(page.locator(".my-appointment").count()).resolves.toBe(1);
    await expect(
      suite.db().prisma.appointment.count({ where: { userId: prospect.id, status: { not: "cancelled" } } }),
    ).resolves.toBe(1);
  });

  it("cancels the user's own appointment after a confirmation", async () => {
    const date = await freeWeekday(suite.db(), 5);
    const user = await createUser(suite.db(), { userType: "client" });
    await bookAppointment({
      db: suite.db(),
      actor: { id: user.id, manages: false },
      input: {
        appointmentType: "teams",
        dateTime: DateTime.fromISO(`${date}T13:00`, { zone: BUSINESS_TIME_ZONE }).toUTC().toISO(),
      },
    });
    const page = await signedIn(user, "/appointments");
    const card = page.locator(".my-appointment").filter({ hasText: "1:00 PM" });
    await card.getByRole("button", { name: "Cancel appointment" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel appointment" }).click();
    await waitForToast(page, /^Appointment cancelled /);
    await page.getByText("No upcoming appointments").waitFor();
    await expect(
      suite.db().prisma.appointment.count({ where: { userId: user.id, status: "cancelled" } }),
    ).resolves.toBe(1);
  });
});
