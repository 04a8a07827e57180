import { sealSetting, unsealSetting } from "@services/shared/sealed";

// One-time links at rest (issue 20). A message that carries a verification, reset or invitation link
// is stored with the link's token replaced by "redacted" (as the delivery log shows it) and the
// token sealed beside it (`email_messages.linkTokenSealed`): a database reader finds no usable link.
// The sender opens the seal and puts the token back into the links as it hands the message to the
// SMTP server; once the message is sent, captured or failed, the sealed token is dropped.
// sealSetting's key is the deployment's (SESSION_SECRET, or in development the data directory's),
// so a message queued before a restart still opens after it.

const REDACTED = "redacted";

/** A link's `token=` parameter whose value was redacted, in the text part or the HTML-escaped one. */
const REDACTED_TOKEN = /([?&](?:amp;)?token(?:=|&#x3D;))redacted(?=["'&\s<>]|$)/gi;

/** `body` with every occurrence of `token` (as it is, or URL-encoded) replaced by "redacted". */
export function withoutToken(body: string, token: string): string {
  if (token.length === 0) return body;
  return body.split(encodeURIComponent(token)).join(REDACTED).split(token).join(REDACTED);
}

/** `body` with the token put back into every link whose `token=` was redacted. */
export function withToken(body: string, token: string): string {
  return body.replace(REDACTED_TOKEN, (_match, prefix: string) => `${prefix}${encodeURIComponent(token)}`);
}

/** The sealed form of a one-time link's token, as email_messages keeps it until the message goes. */
export function sealLinkToken(token: string): string {
  return sealSetting(token);
}

/**
 * Opens a token sealed by {@link sealLinkToken}.
 * @throws SealError when it was altered or sealed under another key.
 */
export function openLinkToken(sealed: string): string {
  return unsealSetting(sealed);
}
