import { defineConsumer } from "@services/shared/events/consumer";
import { logger } from "@services/shared/logger";
import { findUserContact } from "@services/user";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

// Document emails (issue 9): the team's address hears of each document a client sends (a new one or a
// resubmission), the client of each decision (a rejection with its reason) and of each report the
// team sends. Document events name the client by id only, so the client's address and name are asked
// of the user service at send time (findUserContact, its face's contract): the email goes to
// the address the client has now. The email service writes only its own tables.

const TEMPLATES = {
  teamUploaded: "team_document_uploaded",
  teamResubmitted: "team_document_resubmitted",
  approved: "document_approved",
  rejected: "document_rejected",
  report: "document_report",
} as const;

/** Which template an event sends, and to whom: the team or the document's client. */
function templateOf(
  type: "document.uploaded" | "document.resubmitted" | "document.approved" | "document.rejected",
  fromTeam: boolean,
): { key: (typeof TEMPLATES)[keyof typeof TEMPLATES]; to: "team" | "client" } {
  switch (type) {
    case "document.uploaded":
      return fromTeam ? { key: TEMPLATES.report, to: "client" } : { key: TEMPLATES.teamUploaded, to: "team" };
    case "document.resubmitted":
      return { key: TEMPLATES.teamResubmitted, to: "team" };
    case "document.approved":
      return { key: TEMPLATES.approved, to: "client" };
    case "document.rejected":
      return { key: TEMPLATES.rejected, to: "client" };
  }
}

/**
 * document.uploaded (a client's: to the team; a report: to the client), document.resubmitted (to the
 * team), document.approved and document.rejected (to the client, the rejection with its reason).
 * Idempotent: each message's key is the event's id, the template and the recipient.
 */
export const documentEmails = defineConsumer({
  name: "email_documents",
  events: ["document.uploaded", "document.resubmitted", "document.approved", "document.rejected"],
  async handle(envelope, tx) {
    const payload = envelope.payload;
    const fromTeam = envelope.type === "document.uploaded" && envelope.payload.fromTeam;
    const template = templateOf(envelope.type, fromTeam);
    const context = await loadMailContext(tx, [template.key]);
    const client = await findUserContact(tx, payload.userId);
    if (!client) {
      // the client's account is gone (its documents went with it): nobody to tell, nothing to name
      logger("email").info(
        { eventId: envelope.id, userId: payload.userId },
        "document email skipped: no such user",
      );
      return;
    }
    const variables: Record<string, string | null> = {
      firstName: client.firstName,
      lastName: client.lastName,
      title: payload.title,
      fileName: payload.fileName,
      version: String(payload.version),
      link: `${context.publicUrl}/documents`,
    };
    if (template.to === "team") {
      Object.assign(variables, {
        userName: `${client.firstName} ${client.lastName}`.trim(),
        userEmail: client.email,
        companyName: client.companyName ?? "—",
        link: `${context.publicUrl}/admin/documentation`,
      });
    }
    if (envelope.type === "document.approved") variables.decidedBy = envelope.payload.approvedBy;
    if (envelope.type === "document.rejected") {
      variables.decidedBy = envelope.payload.rejectedBy;
      variables.reason = envelope.payload.reason;
    }
    if (envelope.type === "document.uploaded") {
      variables.uploadedByName = envelope.payload.uploadedByName ?? "Our team";
    }
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: template.key,
      to: template.to === "team" ? context.teamAddress : client.email,
      context,
      variables,
    });
  },
});
