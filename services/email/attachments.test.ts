import { calendarMethodOf, parseAttachments } from "./attachments";
import { dayWord } from "./consumers/appointmentEmails";
import { nodemailerMessage } from "./mailTransport";
import { testInvitation, testPdf } from "./testing/attachments";

// a cancelled phone call, at its second change
const invitation = testInvitation({
  appointmentId: 7,
  appointmentType: "phone",
  status: "pending",
  sequence: 2,
  method: "CANCEL",
});
const pdf = testPdf("%PDF-1.7");
const mail = { from: "a@firm.test", to: "ada@example.test", subject: "s", html: "<p>h</p>", text: "t" };

describe("email attachments", () => {
  it("names an invitation's method from its content type, and nothing for other files", () => {
    expect(invitation).toMatchObject({
      filename: "cancel.ics",
      contentType: "text/calendar; charset=utf-8; method=CANCEL",
    });
    expect(invitation.content).toMatch(/^METHOD:CANCEL\r$/m);
    expect(invitation.content).toContain("UID:appointment-7@portal.test");
    expect(invitation.content).toContain("SEQUENCE:2");
    expect(invitation.content).toContain("DTSTART;TZID=America/Los_Angeles:20320310T090000");
    expect(calendarMethodOf(invitation)).toBe("CANCEL");
    expect(calendarMethodOf({ ...invitation, contentType: "text/calendar" })).toBe("CANCEL");
    expect(calendarMethodOf(pdf)).toBeNull();
  });

  it("reads stored attachments and refuses what is not one", () => {
    expect(parseAttachments(null)).toEqual([]);
    expect(parseAttachments([pdf])).toEqual([pdf]);
    expect(() => parseAttachments([{ filename: "x" }])).toThrow();
  });

  it("sends the invitation as nodemailer's icalEvent, once, and other files as attachments", () => {
    expect(nodemailerMessage(mail)).toEqual(mail);
    const message = nodemailerMessage({ ...mail, attachments: [pdf, invitation] });
    expect(message.icalEvent).toEqual({
      method: "CANCEL",
      filename: "cancel.ics",
      content: invitation.content,
    });
    expect(message.attachments).toEqual([
      { filename: "statement.pdf", content: pdf.content, contentType: "application/pdf", encoding: "base64" },
    ]);
  });

  it("says today, tomorrow or the date of a reminder, in Pacific time", () => {
    // 10:00 PM Pacific on the 9th is already the 10th in UTC
    expect(dayWord("2032-03-10T17:00:00.000Z", "2032-03-10T06:00:00.000Z")).toBe("tomorrow");
    expect(dayWord("2032-03-10T17:00:00.000Z", "2032-03-10T09:00:00.000Z")).toBe("today");
    expect(dayWord("2032-03-12T17:00:00.000Z", "2032-03-10T09:00:00.000Z")).toBe("on Friday, March 12, 2032");
  });
});
