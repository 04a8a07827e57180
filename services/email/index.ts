/**
 * The email service: templated messages queued from domain events and sent over SMTP, the email
 * settings, the templates' administration and the delivery log.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/email` only, never a file inside it.
 */
export { invitationEmail } from "./consumers/invitationEmail";
export { DEFAULT_EMAIL_TEMPLATES, type DefaultEmailTemplate } from "./defaultTemplates";
export type {
  EmailCounts,
  EmailMessageDetail,
  EmailMessagePage,
  EmailMessageSummary,
  ResendResult,
} from "./deliveryLog";
export { emailCountsLast24h, getEmailMessage, listEmailMessages, resendEmailMessage } from "./deliveryLog";
export type { EmailFigures } from "./emailFigures";
export { emailFigures } from "./emailFigures";
export type { EmailSettingsActor, EmailSettingsView, EnvironmentLock } from "./emailSettings";
export {
  currentSmtpTarget,
  getEmailSettings,
  testEmailConnection,
  updateEmailSettings,
} from "./emailSettings";
export type { SmtpVerification } from "./mailTransport";
export { smtpTransport, targetLabel, verifySmtp } from "./mailTransport";
export { seedEmailDefaults } from "./seedEmailDefaults";
export type { EmailSender } from "./sender";
export { startEmailSender } from "./sender";
export type {
  EmailActor,
  EmailTemplateVersionView,
  EmailTemplateView,
  TemplatePreview,
  TestSendResult,
} from "./templateAdmin";
export {
  getEmailTemplate,
  listEmailTemplates,
  listTemplateVersions,
  previewEmailTemplate,
  restoreTemplateVersion,
  revertEmailTemplate,
  sendTestEmail,
  updateEmailTemplate,
} from "./templateAdmin";
export type { TemplateVariable } from "./templateCatalog";
export type { TemplateProblem } from "./templateRules";
// The worker entry: the service's event consumers and background work (services/registry.ts).
export { consumers, startWorkers } from "./worker";
