import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { bookAppointment, SLOT_TAKEN_MESSAGE } from "@services/appointment";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { currentMonday } from "@web/features/admin-appointments/adminAppointments";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { freeWeekday } from "./support/appointments";
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

/** Books a pending phone appointment for `user` at a business date and time, as the service does. */
async function seedPending(user: { id: number }, date: string, time: string): Promise<void> {
  await bookAppointment({
    db: suite.db(),
    actor: { id: user.id, manages: false },
    input: { appointmentType: "phone", dateTime: pacific(date, time) },
  });
}

/** The table row of the appointment of the client with this email. */
const rowOf = (page: Page, email: string) =>
  page.getByRole("table", { name: "Appointments" }).locator("tbody tr").filter({ hasText: email });

describe("Appointment Administration in the browser", () => {
  it("confirms a client's pending booking through the dialog, and the client sees it confirmed", async () => {
    const date = await freeWeekday(suite.db(), 3);
    const client = await createUser(suite.db(), {
      userType: "client",
      firstName: "Cleo",
      lastName: "Booker",
    });
    await seedPending(client, date, "11:00");

    const admin = await createAdmin(suite.db());
    const page = await signedIn(admin, "/admin/appointments");
    await page.getByRole("heading", { name: "Appointment Administration" }).waitFor();
    await page.getByLabel("Client").fill(client.email);
    const row = rowOf(page, client.email);
    await row.getByText("Pending").waitFor();
    await expect(row.textContent()).resolves.toContain("11:00 AM");
    await expect(row.textContent()).resolves.toContain("Cleo Booker");
    await row.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm appointment" }).click();
    await waitForToast(page, /^Appointment confirmed /);
    await row.getByText("Confirmed").waitFor();
    await expect(row.getByRole("button", { name: "Confirm" }).count()).resolves.toBe(0);

    // the client's own API and their appointments list both say confirmed
    const clientPage = await signedIn(client, "/appointments");
    const mine = await clientPage.request.get(`${suite.server().url}/api/appointments/mine`);
    expect(mine.ok()).toBe(true);
    const appointments = (await mine.json()) as { dateTime: string; status: string }[];
    expect(appointments).toEqual([
      expect.objectContaining({ dateTime: pacific(date, "11:00"), status: "confirmed" }),
    ]);
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
    await seedPending(cancelMe, date, "09:00");
    await seedPending(moveMe, date, "09:30");
    const page = await signedIn(admin, "/admin/appointments");
    await page.getByLabel("From", { exact: true }).fill(date);
    // a range that ends before it starts is refused in the form, not sent
    await page
      .getByLabel("To", { exact: true })
      .fill(DateTime.fromISO(date).minus({ days: 1 }).toISODate() ?? "");
    await page.getByText("The From date must be on or before the To date").waitFor();
    await page.getByLabel("To", { exact: true }).fill(date);
    await rowOf(page, moveMe.email).waitFor();
    await expect(page.getByText("The From date must be on or before the To date").count()).resolves.toBe(0);

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
    // someone takes 1:00 PM after the picker has loaded: the server's message is shown, the dialog
    // stays open and the picker now marks the slot taken
    await time.selectOption({ label: "1:00 PM" });
    const quick = await createUser(suite.db(), { userType: "client", lastName: "Quick" });
    await seedPending(quick, date, "13:00");
    await moveDialog.getByRole("button", { name: "Reschedule" }).click();
    await waitForToast(page, `Failed to reschedule appointment ${SLOT_TAKEN_MESSAGE}`);
    await time.locator("option", { hasText: /^1:00 PM \(taken\)$/ }).waitFor({ state: "attached" });
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

  it("keeps users without manage:appointments out, in the browser and on the server", async () => {
    for (const userType of ["client", "prospect"] as const) {
      const user = await createUser(suite.db(), { userType });
      const page = await signedIn(user, "/admin/appointments");
      await page.waitForURL(`${suite.server().url}/dashboard`);
      await expect(page.getByRole("heading", { name: "Appointment Administration" }).count()).resolves.toBe(
        0,
      );
      // the guard is a convenience: the server refuses the list itself
      const rest = await page.request.get(`${suite.server().url}/api/admin/appointments`);
      expect(rest.status()).toBe(403);
      const graphql = await page.request.post(`${suite.server().url}/graphql`, {
        data: { query: "{ adminAppointments { id } }" },
      });
      const body = (await graphql.json()) as {
        data?: unknown;
        errors?: { extensions?: { code?: string } }[];
      };
      expect(body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    }
  });
});
