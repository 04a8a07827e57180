import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import { roundTripConsumer } from "@services/shared/events/roundTrip";
import { appointmentEmails, teamAppointmentNotification } from "./consumers/appointmentEmails";
import { documentEmails } from "./consumers/documentEmails";
import { invitationEmail } from "./consumers/invitationEmail";
import { passwordChangedEmail } from "./consumers/passwordChangedEmail";
import { passwordResetEmail } from "./consumers/passwordResetEmail";
import { registrationEmails } from "./consumers/registrationEmails";
import { teamNoteNotification } from "./consumers/teamNoteNotification";
import { twoFactorChangedEmail } from "./consumers/twoFactorChangedEmail";
import { verificationEmail } from "./consumers/verificationEmail";
import { welcomeEmail } from "./consumers/welcomeEmail";
import { startEmailSender } from "./sender";

/**
 * The email service: templated email over SMTP with a delivery log.
 * Its event consumers, started by a process whose WORKERS setting names "email" (or "all"); each
 * turns a user, appointment or document event into queued rows of email_messages.
 */
export const consumers: Consumer[] = [
  registrationEmails,
  invitationEmail,
  verificationEmail,
  welcomeEmail,
  passwordResetEmail,
  passwordChangedEmail,
  twoFactorChangedEmail,
  teamNoteNotification,
  appointmentEmails,
  teamAppointmentNotification,
  documentEmails,
  roundTripConsumer("email"),
];

/**
 * The service's background work, for a process that runs its consumers: the sender that delivers
 * queued messages (over SMTP at SMTP_URL, or captured when it is unset). Stop it before closing db.
 * @throws when the database refuses the LISTEN.
 */
export async function startWorkers(props: { db: Db }): Promise<{ stop(): Promise<void> }> {
  return startEmailSender({ db: props.db });
}

export { type EmailSender, type EmailSenderOptions, startEmailSender } from "./sender";
