import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { BUSINESS_TIME_ZONE } from "../schema/validation/appointment";
import { bookAppointment } from "../services/appointment/bookAppointment";
import { createAdmin, createUser } from "../services/shared/testing/factories";
import { currentMonday } from "../web/src/pages/admin/appointments/adminAppointments";
import { book, freeWeekday } from "./support/appointments";
import { waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Appointment Administration in the browser (spec §2 /admin/appointments): a client books, an
// administrator confirms, cancels with a reason and reschedules from the table and the week view,
// and the client sees the outcome.

const suite = browserSuite();
const { signedIn } = suite;

function pacific(date: string, time: string): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: BUSINESS_TIME_ZONE }).toUTC().toISO() ?? "";
}

/** The table row of the appointment of the client with this email. */
const rowOf = (page: Page, email: string) =>
  page.getByRole("table", { name: "Appointments" }).locator("tbody tr").filter({ hasText: email });

describe("Appointment Administration in the browser", () => {
  it("confirms a client's booking, and the client sees it confirmed", async () => {
    const date = await freeWeekday(suite.db(), 3);
    const client = await createUser(suite.db(), {
      userType: "client",
      firstName: "Cleo",
      lastName: "Booker",
    });
    const clientPage = await signedIn(client, "/appointments");
    await book(clientPage, date, "11:00 AM", "Microsoft Teams");
    await waitForToast(clientPage, "Appointment scheduled Your appointment has been scheduled successfully");

    const admin = await createAdmin(suite.db());
    const page = await signedIn(admin, "/admin/appointments");
    await page.getByRole("heading", { name: "Appointment Administration" }).waitFor();
    await page.getByLabel("Client").fill(client.email);
    const row = rowOf(page, client.email);
    await row.getByText("Pending").waitFor();
    await expect(row.textContent()).resolves.toContain("11:00 AM");
    await row.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm appointment" }).click();
    await waitForToast(page, /^Appointment confirmed /);
    await row.getByText("Confirmed").waitFor();
    await expect(row.getByRole("button", { name: "Confirm" }).count()).resolves.toBe(0);

    await clientPage.reload();
    await clientPage
      .locator(".my-appointment")
      .filter({ hasText: "11:00 AM" })
      .getByText("Confirmed")
      .waitFor();
  });

  it("cancels with a required reason and reschedules to a free slot, in the table and the week", async () => {
    const date = await freeWeekday(suite.db(), 1);
    const admin = await createAdmin(suite.db());
    const cancelMe = await createUser(suite.db(), { userType: "client", lastName: "Cancelme" });
    const moveMe = await createUser(suite.db(), { userType: "client", lastName: "Moveme" });
    for (const [user, time] of [
      [cancelMe, "09:00"],
      [moveMe, "09:30"],
    ] as const) {
      await bookAppointment({
        db: suite.db(),
        actor: { id: user.id, manages: false },
        input: { appointmentType: "phone", dateTime: pacific(date, time) },
      });
    }
    const page = await signedIn(admin, "/admin/appointments");
    await page.getByLabel("From").fill(date);
    await page.getByLabel("To").fill(date);

    await rowOf(page, cancelMe.email).getByRole("button", { name: "Cancel" }).click();
    const cancelDialog = page.getByRole("dialog", { name: "Cancel appointment" });
    await cancelDialog.getByRole("button", { name: "Cancel appointment" }).click();
    await cancelDialog.getByText("A reason is required to cancel an appointment").waitFor();
    await cancelDialog.getByLabel("Reason (the client reads it)").fill("Advisor unavailable");
    await cancelDialog.getByRole("button", { name: "Cancel appointment" }).click();
    await waitForToast(page, /^Appointment cancelled /);
    await rowOf(page, cancelMe.email).getByText("Advisor unavailable").waitFor();
    await rowOf(page, cancelMe.email).getByText("Cancelled").waitFor();

    await rowOf(page, moveMe.email).getByRole("button", { name: "Reschedule" }).click();
    const moveDialog = page.getByRole("dialog", { name: "Reschedule appointment" });
    await moveDialog.getByLabel("New date").fill(date);
    const time = moveDialog.getByLabel("New time (Pacific time)");
    await time.locator("option", { hasText: /^2:00 PM$/ }).waitFor({ state: "attached" });
    await expect(time.locator("option", { hasText: /^9:30 AM/ }).isDisabled()).resolves.toBe(true);
    await time.selectOption({ label: "2:00 PM" });
    await moveDialog.getByRole("button", { name: "Reschedule" }).click();
    await waitForToast(page, /^Appointment rescheduled Now on .* at 2:00 PM /);
    await expect(rowOf(page, moveMe.email).textContent()).resolves.toContain("2:00 PM");

    const stored = await suite.db().prisma.appointment.findFirstOrThrow({ where: { userId: moveMe.id } });
    expect(stored.dateTime.toISOString()).toBe(new Date(pacific(date, "14:00")).toISOString());
    expect(stored.sequence).toBe(1);

    // the week view shows both where they now are
    await page.getByRole("radio", { name: "Week" }).click();
    const week = page.getByRole("table", { name: "Week calendar" });
    const weeksAhead = Math.round(
      DateTime.fromISO(date).diff(DateTime.fromISO(currentMonday()), "weeks").weeks,
    );
    for (let i = 0; i < weeksAhead; i++) await page.getByRole("button", { name: "Next week" }).click();
    const moved = week.getByRole("row", { name: /^2:00 PM/ }).getByRole("button", { name: /Moveme/ });
    await moved.click();
    await page.locator(".admin-appointments-selected").getByText("Pending").waitFor();
    await week
      .getByRole("row", { name: /^9:00 AM/ })
      .getByRole("button", { name: /Cancelme/ })
      .waitFor();
  });

  it("keeps a client out of the page", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    const page = await signedIn(client, "/admin/appointments");
    await page.waitForURL(`${suite.server().url}/dashboard`);
    await expect(page.getByRole("heading", { name: "Appointment Administration" }).count()).resolves.toBe(0);
  });
});
