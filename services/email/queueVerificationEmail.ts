import { AUTH_LINKS } from "@schema/api/user";
import type { Tx } from "@services/shared/db";
import { unseal } from "@services/shared/sealed";
import type { MailContext } from "./mailContext";
import { queueEmail } from "./queueEmail";

/**
 * Queues the email_verification message: its link carries the unsealed token (stored sealed, put
 * into the link as it is sent), and it says how long the link stays valid (from the event's time to
 * the token's expiry).
 * @throws Error when the sealed token was tampered with (the event then goes to dead letters).
 */
export async function queueVerificationEmail(props: {
  tx: Tx;
  eventId: string;
  occurredAt: string;
  context: MailContext;
  user: { email: string; firstName: string; lastName?: string; sealedToken: string; tokenExpiresAt: string };
}): Promise<void> {
  const { user, context } = props;
  const validMs = Date.parse(user.tokenExpiresAt) - Date.parse(props.occurredAt);
  const token = unseal(user.sealedToken);
  await queueEmail({
    tx: props.tx,
    eventId: props.eventId,
    templateKey: "email_verification",
    to: user.email,
    context,
    variables: {
      firstName: user.firstName,
      lastName: user.lastName ?? "",
      link: AUTH_LINKS.verifyEmail(context.publicUrl, token),
      expiresInHours: Math.max(1, Math.round(validMs / 3_600_000)),
    },
    // kept sealed, not in the stored message (./oneTimeLinks.ts)
    oneTimeToken: token,
  });
}
