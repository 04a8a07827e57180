import type { EmailAttachment } from "../attachments";
import { type InvitationProps, invitationAttachment } from "../invitation";

/** A calendar invitation (REQUEST, a confirmed Zoom meeting) for Ada Lovelace from the ESRT team. */
export function testInvitation(overrides: Partial<InvitationProps> = {}): EmailAttachment {
  return invitationAttachment({
    appointmentId: 41,
    dateTime: "2032-03-10T17:00:00.000Z",
    appointmentType: "zoom",
    status: "confirmed",
    sequence: 3,
    method: "REQUEST",
    productName: "ESRT",
    organizer: { name: "ESRT team", email: "team@firm.test" },
    attendee: { name: "Ada Lovelace", email: "ada@example.test" },
    publicUrl: "https://portal.test",
    notes: null,
    ...overrides,
  });
}

/** A PDF attachment named statement.pdf holding `text`. */
export function testPdf(text: string): EmailAttachment {
  return {
    filename: "statement.pdf",
    contentType: "application/pdf",
    content: Buffer.from(text).toString("base64"),
    encoding: "base64",
  };
}
