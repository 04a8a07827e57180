import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { samplePdf } from "@services/document/testing";
import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import type { Locator, Page } from "playwright-core";
import { downloadedFile } from "./support/browser";
import { pressEscapeInOverlay, signInThroughApi, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Documents in the browser (issue 9): a client drops two files on /documents and sees both finish
// as Pending; an administrator rejects one with a reason and approves the other; the client reads
// the reason and resubmits, the administrator approves; the client downloads and the count rises;
// an administrator sends a report the client finds under "From the team"; the storage settings
// refuse an empty type list and 999,999 bytes; a file refused for its content is not offered as an
// unfinished upload after a reload; a prospect is sent to /prospect-landing.

const suite = browserSuite();
const { signedIn } = suite;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * How many pixels of `canvas` are dark (drawn text), read in the page: 0 for a canvas pdf.js left
 * blank.
 */
const darkPixels = (canvas: Locator) =>
  canvas.evaluate((element) => {
    const drawn = element as unknown as {
      width: number;
      height: number;
      getContext(kind: "2d"): { getImageData(...box: number[]): { data: Uint8ClampedArray } } | null;
    };
    const data = drawn.getContext("2d")?.getImageData(0, 0, drawn.width, drawn.height).data ?? [];
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 128) dark++;
    return dark;
  });

/**
 * Checks that `where` shows the one-page PDF titled `title` drawn by pdf.js: "Page 1 of 1", a
 * canvas named for the page with text drawn on it, and the page's text (`text`) as its alternative.
 */
async function expectPdfDrawn(where: Locator, title: string, text: string): Promise<void> {
  await where.getByText("Page 1 of 1", { exact: true }).waitFor();
  const canvas = where.getByRole("img", { name: `Page 1 of 1 of ${title}` });
  await canvas.waitFor();
  // the canvas is named before pdf.js has finished drawing on it
  const deadline = Date.now() + 10_000;
  while ((await darkPixels(canvas)) === 0) {
    if (Date.now() > deadline) throw new Error(`pdf.js drew nothing of ${title}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await where.getByText("Text of page 1").click();
  await where.getByText(text, { exact: true }).waitFor();
}

/** The client's card of the document titled `title` in the list named `list`. */
const cardOf = (page: Page, title: string, list = "Your documents") =>
  page
    .getByRole("list", { name: list })
    .locator(".documents-card")
    .filter({ has: page.getByText(title, { exact: true }) });

/** Opens the review queue narrowed to one client's documents (the status view stays as asked). */
async function queueOf(page: Page, client: User): Promise<void> {
  await page.goto(`${suite.server().url}/admin/documentation`);
  await page.getByRole("heading", { level: 1, name: "Documentation" }).waitFor();
  const filters = page.getByRole("form", { name: "Filter documents" });
  await filters.getByLabel("Find client").fill(client.email);
  await filters.getByLabel("Client", { exact: true }).selectOption(String(client.id));
}

/** The queue's row of the document titled `title`. */
const rowOf = (page: Page, title: string) =>
  page.getByRole("table", { name: "Documents" }).locator("tbody tr").filter({ hasText: title });

/** Selects the document titled `title` in the queue; the panel beside the list shows it. */
async function select(page: Page, title: string) {
  await rowOf(page, title).getByRole("button", { name: title, exact: true }).click();
  const panel = page.getByRole("region", { name: "Selected document" });
  await panel.getByRole("heading", { name: title }).waitFor();
  return panel;
}

describe("documents in the browser", () => {
  jest.setTimeout(120_000);

  it("takes two dropped files through review, rejection, resubmission, approval and download", async () => {
    const suffix = uniqueSuffix();
    const client = await createUser(suite.db(), {
      userType: "client",
      firstName: "Cleo",
      lastName: `Files${suffix}`,
    });
    const admin = await createAdmin(suite.db(), { firstName: "Rita", lastName: "Reviewer" });
    const returnPdf = samplePdf([`tax return ${suffix}`]);

    // the client picks two files at once; each is titled from its name and uploads to Pending
    const page = await signedIn(client, "/documents");
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    await page.getByRole("heading", { name: "No documents yet" }).waitFor();
    await page.getByLabel("Choose files to upload").setInputFiles([
      { name: "Tax return 2031.pdf", mimeType: "application/pdf", buffer: returnPdf },
      { name: "Receipt.png", mimeType: "image/png", buffer: PNG },
    ]);
    const uploads = page.getByRole("list", { name: "Files to upload" });
    await expect(uploads.getByLabel("Title").nth(0).inputValue()).resolves.toBe("Tax return 2031");
    await expect(uploads.getByLabel("Title").nth(1).inputValue()).resolves.toBe("Receipt");
    await uploads.getByLabel("Description (optional)").nth(0).fill("Signed copy");
    await page.getByRole("button", { name: "Upload all (2)" }).click();
    for (const name of ["Tax return 2031.pdf", "Receipt.png"]) {
      await page
        .locator(`[data-upload-file="${name}"]`)
        .getByText(/Uploaded$/)
        .waitFor();
    }
    await cardOf(page, "Tax return 2031").getByText("Pending").waitFor();
    await cardOf(page, "Receipt").getByText("Pending").waitFor();
    await cardOf(page, "Tax return 2031").getByText("Signed copy").waitFor();

    // the administrator rejects the receipt with a reason and approves the return
    const review = await signedIn(admin, "/admin/documentation");
    await queueOf(review, client);
    await rowOf(review, "Receipt").getByText("Pending").waitFor();
    await rowOf(review, "Tax return 2031").getByText("Pending").waitFor();
    let panel = await select(review, "Tax return 2031");
    // the PDF is drawn in the panel by pdf.js (a browser's viewer refuses the sandboxed preview)
    await expectPdfDrawn(panel, "Tax return 2031", `tax return ${suffix}`);
    panel = await select(review, "Receipt");
    await panel.getByRole("img", { name: "Preview of Receipt" }).waitFor();
    await panel.getByRole("button", { name: "Reject…" }).click();
    const rejectDialog = review.getByRole("dialog", { name: "Reject document" });
    await rejectDialog.getByRole("button", { name: "Reject document" }).click();
    await rejectDialog.getByText("Please give a reason for the rejection").waitFor();
    await rejectDialog
      .getByLabel("Reason (the client reads it)")
      .fill("The receipt is cut off at the bottom");
    await rejectDialog.getByRole("button", { name: "Reject document" }).click();
    await waitForToast(review, /^Document rejected /);
    panel = await select(review, "Tax return 2031");
    await panel.getByRole("button", { name: "Approve", exact: true }).click();
    await waitForToast(review, /^Document approved /);
    // a decided document is no longer pending: the default view (pending) has neither
    await review.getByRole("heading", { name: "Nothing to review" }).waitFor();

    // the client reads the reason and sends a corrected file; the receipt is pending again
    await page.reload();
    const receipt = cardOf(page, "Receipt");
    await receipt.getByText("Rejected", { exact: true }).waitFor();
    await receipt.getByText("The receipt is cut off at the bottom").waitFor();
    await cardOf(page, "Tax return 2031").getByText("Approved", { exact: true }).waitFor();
    await receipt.getByRole("button", { name: "Resubmit Receipt" }).click();
    const resubmit = page.getByRole("dialog", { name: "Resubmit Receipt" });
    await resubmit.getByLabel("New file for Receipt").setInputFiles({
      name: "Receipt full.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await resubmit.getByRole("button", { name: "Upload Receipt full.png" }).click();
    await waitForToast(page, /^Document resubmitted /);
    await receipt.getByText("Pending").waitFor();
    await receipt.getByText(/version 2/).waitFor();

    // the administrator approves the resubmission; its history shows both versions and each decision
    await queueOf(review, client);
    panel = await select(review, "Receipt");
    await panel.getByRole("list", { name: "History of Receipt" }).getByText("Resubmitted").waitFor();
    await expect(
      panel.getByRole("table", { name: "Versions of Receipt" }).locator("tbody tr").count(),
    ).resolves.toBe(2);
    await panel.getByRole("button", { name: "Approve", exact: true }).click();
    await waitForToast(review, /^Document approved /);

    // the client downloads the return: the same bytes, and the count rises by one
    await page.reload();
    const taxReturn = cardOf(page, "Tax return 2031");
    await taxReturn.getByText(/0 downloads/).waitFor();
    await cardOf(page, "Receipt").getByText("Approved", { exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      taxReturn.getByRole("button", { name: "Download Tax return 2031" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Tax return 2031.pdf");
    const path = await downloadedFile(download);
    expect(sha256(await readFile(path))).toBe(sha256(returnPdf));
    await taxReturn.getByText(/1 download\b/).waitFor();
    const stored = await suite.db().prisma.document.findFirstOrThrow({
      where: { userId: client.id, title: "Tax return 2031" },
    });
    expect(stored.downloadCount).toBe(1);

    // the client previews the return in a dialog, drawn in the page; a preview is not a download
    await taxReturn.getByRole("button", { name: "Preview Tax return 2031" }).click();
    const preview = page.getByRole("dialog", { name: "Preview: Tax return 2031" });
    await expectPdfDrawn(preview, "Tax return 2031", `tax return ${suffix}`);
    await pressEscapeInOverlay(page);
    await preview.waitFor({ state: "detached" });
    await taxReturn.getByText(/1 download\b/).waitFor();
  });

  it("delivers a report an administrator sends to the client's 'From the team'", async () => {
    const suffix = uniqueSuffix();
    const client = await createUser(suite.db(), {
      userType: "client",
      firstName: "Rhea",
      lastName: `Port${suffix}`,
    });
    const admin = await createAdmin(suite.db(), { firstName: "Sam", lastName: "Sender" });

    const review = await signedIn(admin, "/admin/documentation");
    await review.getByRole("button", { name: "Send a report to a client" }).click();
    const dialog = review.getByRole("dialog", { name: "Send a report to a client" });
    await dialog.getByLabel("Find client").fill(client.email);
    await dialog.getByLabel("Client", { exact: true }).selectOption(String(client.id));
    await dialog.getByLabel("Choose the report's file").setInputFiles({
      name: "Quarterly report.pdf",
      mimeType: "application/pdf",
      buffer: samplePdf([`report ${suffix}`]),
    });
    await expect(dialog.getByLabel("Title").inputValue()).resolves.toBe("Quarterly report");
    await dialog.getByRole("button", { name: "Upload Quarterly report.pdf" }).click();
    await waitForToast(review, /^Report sent /);

    const page = await signedIn(client, "/documents");
    const report = cardOf(page, "Quarterly report", "From the team");
    await report.getByText("Approved", { exact: true }).waitFor();
    await report.getByText(/by Sam Sender/).waitFor();
    // a report is not among the client's own documents
    await page.getByRole("heading", { name: "No documents yet" }).waitFor();
  });

  it("refuses an empty type list and 999,999 bytes in the storage settings, in the form and on the server", async () => {
    const admin = await createAdmin(suite.db());
    const page = await signedIn(admin, "/admin/storage");
    const form = page.getByRole("form", { name: "Storage settings" });
    await form.waitFor();
    const before = await suite.db().prisma.storageConfig.findFirst();

    await form.getByRole("button", { name: "Clear selected items" }).click();
    await form.getByText("At least one file type must be allowed").waitFor();
    // clearing leaves the type list focused and open over the form; Escape closes it
    await page.keyboard.press("Escape");
    await page.getByRole("listbox", { name: "File types" }).waitFor({ state: "hidden" });
    await form.getByLabel("Maximum file size (MB)").fill("0.999999");
    await form.getByText("Maximum file size must be at least 1,000,000 bytes").waitFor();
    await form.getByRole("button", { name: "Save settings" }).click();
    await form.getByText("At least one file type must be allowed").waitFor();
    // nothing was sent: the stored settings are as they were
    await expect(page.getByText("Storage settings saved").count()).resolves.toBe(0);
    const after = await suite.db().prisma.storageConfig.findFirst();
    expect(after?.maxFileSize).toEqual(before?.maxFileSize);
    expect(after?.allowedFileTypes).toEqual(before?.allowedFileTypes);

    // the server refuses the same values on its own
    const answer = await page.request.post(`${suite.server().url}/graphql`, {
      headers: { Origin: suite.server().url },
      data: {
        query: `mutation { updateStorageSettings(input: { storageType: local, maxFileSize: 999999, allowedFileTypes: ["pdf"] }) {
          __typename ... on AppError { message } } }`,
      },
    });
    const body = (await answer.json()) as {
      data?: { updateStorageSettings?: { __typename: string; message?: string } };
    };
    expect(body.data?.updateStorageSettings).toEqual({
      __typename: "AppError",
      message: expect.stringContaining("Maximum file size must be at least 1,000,000 bytes"),
    });
  });

  it("forgets a file refused for its content: after a reload no unfinished upload is offered", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    // the browser logs the refusal (422) of the upload's last PATCH
    const { page } = await suite.open([/status of 422 .*\/api\/uploads\//]);
    await signInThroughApi(page, suite.server(), client.username);
    await page.goto(`${suite.server().url}/documents`);
    await page.getByRole("heading", { name: "No documents yet" }).waitFor();
    // a ".pdf" whose bytes are text: the upload is created, then refused when its content is checked
    await page.getByLabel("Choose files to upload").setInputFiles({
      name: "Statement.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("These are the notes of a statement, not a PDF document.\n".repeat(40)),
    });
    await page.getByRole("button", { name: "Upload Statement.pdf" }).click();
    const row = page.locator('[data-upload-file="Statement.pdf"]');
    await row.getByText(/Failed$/).waitFor();
    await row
      .getByRole("alert")
      .getByText(/not a PDF document/)
      .waitFor();
    expect(await suite.db().prisma.upload.count({ where: { userId: client.id } })).toBe(0);

    await page.reload();
    await page.getByRole("heading", { name: "No documents yet" }).waitFor();
    const kept = (await page.evaluate(
      'Object.keys(localStorage).filter((key) => key.startsWith("tus::portal-doc-"))',
    )) as string[];
    expect(kept).toEqual([]);
    await expect(page.getByText("Unfinished uploads").count()).resolves.toBe(0);
  });

  it("sends a prospect opening /documents to /prospect-landing with the 'Access Restricted' toast", async () => {
    const prospect = await createUser(suite.db(), { userType: "prospect" });
    const page = await signedIn(prospect, "/documents");
    await page.waitForURL(`${suite.server().url}/prospect-landing`);
    await waitForToast(
      page,
      "Access Restricted This feature is only available to clients. Please contact your administrator for assistance.",
    );
  });
});
