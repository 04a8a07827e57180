import type { PayloadOf } from "@schema/events";
import type { DocumentActor } from "@services/document";
import { approveDocument, rejectDocument } from "@services/document";
import { teamActor } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import type { Document } from "@services/shared/generated/prisma/client";
import { createDocument, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import type { ReceivedMail, TestSmtp } from "../testing/smtpServer";
import { redeliverEvent, registerEmailPipeline, TEST_PUBLIC_URL, TEST_TEAM_ADDRESS } from "../testing/world";

// Document emails end to end: a document event committed by the document service (or, for uploads,
// emitted as the upload path emits it), relayed over JetStream, turned into a queued message by the
// email service and delivered over real SMTP.

const pipeline = registerEmailPipeline();
let db: Db;
let smtp: TestSmtp;
let reviewer: DocumentActor;

beforeAll(async () => {
  ({ db, smtp } = pipeline());
  const admin = await createUser(db, { userType: "userAdmin", firstName: "Rita", lastName: "Reviewer" });
  reviewer = teamActor(admin.id, "Rita Reviewer");
});
async function clientWithDocument(overrides: Partial<Document> = {}) {
  const client = await createUser(db, {
    userType: "client",
    firstName: "Grace",
    lastName: `Hopper ${uniqueSuffix()}`,
    companyName: "Navy Ltd",
  });
  const doc = await createDocument(db, {
    userId: client.id,
    title: `Tax return ${uniqueSuffix()}`,
    ...overrides,
  });
  return { client, doc };
}

async function emitUploaded(doc: Document, extra: { fromTeam: boolean; uploadedByName: string | null }) {
  const payload: PayloadOf<"document.uploaded"> = {
    documentId: doc.id,
    userId: doc.userId,
    title: doc.title,
    fileName: doc.fileName,
    fileType: doc.fileType,
    version: doc.version,
    fileSize: Number(doc.fileSize ?? 0),
    uploadedById: extra.fromTeam ? reviewer.id : doc.userId,
    ...extra,
  };
  await db.prisma.$transaction((tx) => emit(tx, { type: "document.uploaded", payload }));
}

async function mailWith(to: string, subjectPart: string): Promise<ReceivedMail> {
  await waitFor(
    () => smtp.to(to).some((m) => m.subject.includes(subjectPart)),
    `a message to ${to} about "${subjectPart}"`,
  );
  const found = smtp.to(to).filter((m) => m.subject.includes(subjectPart));
  expect(found).toHaveLength(1);
  return found[0] as ReceivedMail;
}

/** Publishes a committed event once more, as JetStream does after a crash before the ack. */
const redeliver = (type: string, documentId: number): Promise<void> =>
  redeliverEvent(pipeline(), type, "documentId", documentId);

describe("document emails", () => {
  it("tells the team of a client's upload and resubmission, with a link to the review queue", async () => {
    const { client, doc } = await clientWithDocument();
    await emitUploaded(doc, { fromTeam: false, uploadedByName: `${client.firstName} ${client.lastName}` });
    const notice = await mailWith(TEST_TEAM_ADDRESS, doc.title);
    expect(notice.subject).toBe(`New document from Grace ${client.lastName}: ${doc.title}`);
    expect(notice.text).toContain(`Grace ${client.lastName} (${client.email}, Navy Ltd) uploaded a document`);
    expect(notice.text).toContain(doc.fileName);
    expect(notice.text).toContain(`${TEST_PUBLIC_URL}/admin/documentation`);

    const payload: PayloadOf<"document.resubmitted"> = {
      documentId: doc.id,
      userId: doc.userId,
      title: doc.title,
      fileName: "corrected.pdf",
      fileType: "pdf",
      version: 2,
      fileSize: 10,
      uploadedByName: null,
    };
    await db.prisma.$transaction((tx) => emit(tx, { type: "document.resubmitted", payload }));
    const again = await mailWith(TEST_TEAM_ADDRESS, `Resubmitted by Grace ${client.lastName}`);
    expect(again.subject).toBe(`Resubmitted by Grace ${client.lastName}: ${doc.title} (version 2)`);
    expect(again.text).toContain("File: corrected.pdf (version 2)");
    expect(smtp.to(client.email)).toEqual([]);
  });

  it("tells the client of a report from the team, and not the team", async () => {
    const { client, doc } = await clientWithDocument({ fromTeam: true, status: "approved" });
    await emitUploaded(doc, { fromTeam: true, uploadedByName: "Rita Reviewer" });
    const report = await mailWith(client.email, doc.title);
    expect(report.subject).toBe(`A new report from the team: ${doc.title}`);
    expect(report.text).toContain("Hello Grace,");
    expect(report.text).toContain(`Rita Reviewer sent you a report: ${doc.title} (${doc.fileName})`);
    expect(report.text).toContain(`${TEST_PUBLIC_URL}/documents`);
    await settle(300);
    expect(smtp.to(TEST_TEAM_ADDRESS).filter((m) => m.subject.includes(doc.title))).toEqual([]);
  });

  it("tells the client of an approval once, even when the event is delivered twice", async () => {
    const { client, doc } = await clientWithDocument();
    await approveDocument({ db, actor: reviewer, documentId: doc.id });
    const approved = await mailWith(client.email, doc.title);
    expect(approved.subject).toBe(`Your document was approved: ${doc.title}`);
    expect(approved.to).toEqual([client.email]);
    expect(approved.text).toContain(`${TEST_PUBLIC_URL}/documents`);
    await redeliver("document.approved", doc.id);
    await settle(500);
    expect(smtp.to(client.email)).toHaveLength(1);
    expect(await db.prisma.emailMessage.count({ where: { toAddress: client.email } })).toBe(1);
  });

  it("tells the client of a rejection with the reason, escaped in the HTML part", async () => {
    const { client, doc } = await clientWithDocument();
    const reason = 'Page 2 is missing & the scan is <blurry> "again"';
    await rejectDocument({ db, actor: reviewer, documentId: doc.id, reason });
    const rejected = await mailWith(client.email, doc.title);
    expect(rejected.subject).toBe(`Your document needs a new file: ${doc.title}`);
    expect(rejected.text).toContain(`Reason: ${reason}`);
    expect(rejected.html).toContain("Page 2 is missing &amp; the scan is &lt;blurry&gt; &quot;again&quot;");
    expect(rejected.html).not.toContain("<blurry>");
    // Mustache escapes the slashes of a link too (a browser reads them back)
    expect(rejected.html).toContain(`href="${TEST_PUBLIC_URL.replaceAll("/", "&#x2F;")}&#x2F;documents"`);
    expect(rejected.text).toContain(`Resubmit the document <${TEST_PUBLIC_URL}/documents>`);
  });
});
