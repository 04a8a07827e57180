import { Intent, Tag } from "@blueprintjs/core";
import type { EmailMessageStatus } from "@web/generated/graphql";

/** Props of an email's HTML shown in a frame. */
export interface EmailFrameProps {
  /** the frame's accessible name */
  title: string;
  html: string;
}

/**
 * An email's HTML in a sandboxed frame (srcdoc, no allow-scripts, no same origin): a script in it
 * never runs, a link in it never navigates the portal, and it cannot read the admin's page.
 */
export function EmailFrame({ title, html }: EmailFrameProps) {
  return <iframe className="email-frame" title={title} sandbox="" srcDoc={html} />;
}

const STATUS_TAGS: Record<EmailMessageStatus, { text: string; intent: Intent }> = {
  queued: { text: "Queued", intent: Intent.PRIMARY },
  sent: { text: "Sent", intent: Intent.SUCCESS },
  failed: { text: "Failed", intent: Intent.DANGER },
  captured: { text: "Captured", intent: Intent.NONE },
};

/** A message's status as a tag. */
export function EmailStatusTag({ status }: { status: EmailMessageStatus }) {
  const tag = STATUS_TAGS[status];
  return (
    <Tag minimal intent={tag.intent}>
      {tag.text}
    </Tag>
  );
}

/** The label of each status, for filters. */
export const EMAIL_STATUS_OPTIONS: { value: EmailMessageStatus; label: string }[] = (
  Object.keys(STATUS_TAGS) as EmailMessageStatus[]
).map((value) => ({ value, label: STATUS_TAGS[value].text }));
