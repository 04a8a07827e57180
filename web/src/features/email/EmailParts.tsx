import { Intent, Tag } from "@blueprintjs/core";
import { EMAIL_FRAME_PATH } from "@schema/api/emailFrame";
import type { EmailMessageStatus } from "@web/generated/graphql";
import { useEffect, useRef, useState } from "react";

/** Props of an email's HTML shown in a frame. */
export interface EmailFrameProps {
  /** the frame's accessible name */
  title: string;
  html: string;
  /** the frame as tall as the email (up to the stylesheet's max-height), following its width */
  fitContent?: boolean;
}

/**
 * An email's HTML in a sandboxed frame (no allow-scripts): a script in it never runs, a form in it
 * never submits, and a link in it never navigates the portal. The frame loads the portal's empty
 * email page, whose own CSP allows the inline styles emails are made of (the app's does not), and
 * the email is written into it once loaded: `allow-same-origin` lets the page's script do that, and
 * without scripts nothing in the frame can use it to reach the page.
 */
export function EmailFrame({ title, html, fitContent = false }: EmailFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const element = frame.current;
    const doc = loaded ? element?.contentDocument : undefined;
    if (!element || !doc) return;
    // the whole document as the email has it, parsed by the frame (under its CSP, which allows the
    // email's inline styles): the <head>'s styles (the layout's media queries and dark-mode colours)
    // and the <body> with its own style; a fragment (an older message in the log) becomes the body.
    // Nothing in it runs (no scripts).
    doc.documentElement.innerHTML = html;
    const body = doc.body;
    if (!fitContent || !body) return;
    // the body's height with its margins: the frame's own height never feeds back into it
    const fitHeight = () => {
      const style = body.ownerDocument.defaultView?.getComputedStyle(body);
      const margins =
        Number.parseFloat(style?.marginTop ?? "0") + Number.parseFloat(style?.marginBottom ?? "0");
      element.style.height = `${Math.ceil(body.getBoundingClientRect().height + (margins || 0)) + 2}px`;
    };
    fitHeight();
    const observer = new ResizeObserver(fitHeight);
    observer.observe(body);
    return () => observer.disconnect();
  }, [html, loaded, fitContent]);
  return (
    <iframe
      ref={frame}
      className="email-frame"
      title={title}
      sandbox="allow-same-origin"
      src={EMAIL_FRAME_PATH}
      onLoad={() => setLoaded(true)}
    />
  );
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
