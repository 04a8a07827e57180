import type { Envelope, EventOf, EventType } from "@schema/events";
import { type Consumer, defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext, type MailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";
import type { EmailVariables } from "../renderEmail";

/** A consumer that answers each of its events with one email from one template. */
export interface EmailConsumerDefinition<T extends EventType> {
  /** the durable consumer name */
  name: string;
  events: readonly T[];
  /** a key of email_templates, read with the mail context */
  templateKey: string;
  /** the address the email goes to (the event's user's, or context.teamAddress) */
  to(envelope: Envelope<EventOf<T>>, context: MailContext): string;
  /** the template's own variables */
  variables(envelope: Envelope<EventOf<T>>, context: MailContext): EmailVariables;
  /** the raw token of the one-time link among the variables, if any: stored sealed (queueEmail) */
  oneTimeToken?(envelope: Envelope<EventOf<T>>): string;
}

/**
 * Declares a consumer that loads the mail context with its template and queues one email per event,
 * keyed by the event's id (idempotent: see queueEmail).
 */
export function defineEmailConsumer<T extends EventType>(definition: EmailConsumerDefinition<T>): Consumer {
  const { templateKey } = definition;
  return defineConsumer({
    name: definition.name,
    events: definition.events,
    async handle(envelope, tx) {
      const context = await loadMailContext(tx, [templateKey]);
      await queueEmail({
        tx,
        eventId: envelope.id,
        templateKey,
        to: definition.to(envelope, context),
        context,
        variables: definition.variables(envelope, context),
        oneTimeToken: definition.oneTimeToken?.(envelope),
      });
    },
  });
}

/** The variables every team notice about a user carries: names, the full name and the address. */
export function userVariables(user: { firstName: string; lastName: string; email: string }): EmailVariables {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    userName: `${user.firstName} ${user.lastName}`.trim(),
    userEmail: user.email,
  };
}
