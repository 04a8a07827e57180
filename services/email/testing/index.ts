/**
 * Test helpers of the email service that other rooms' tests may use (never production code).
 */

export type { ReceivedMail, TestSmtp } from "./smtpServer";
export { startTestSmtp } from "./smtpServer";
export type { EmailPipeline } from "./world";
export { registerEmailPipeline, startEmailPipeline, TEST_PUBLIC_URL } from "./world";
