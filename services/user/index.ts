/**
 * The user service: accounts, sign-in, passwords and one-time tokens, security questions, notes,
 * the administration of users (directory, drawer actions, bulk jobs, imports, invitations), and the
 * branding and security settings.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/user` only, never a file inside it.
 */

export type { UserCard } from "@schema/api/user";
export { acceptInvitation } from "./acceptInvitation";
// The identity steps the gateway's two surfaces share (rate limits, audit, the use case); the
// gateway's identity module adds the session around them (gateway/src/modules/identity).
export { answerSecurityQuestions } from "./answerSecurityQuestions";
export { askPasswordReset } from "./askPasswordReset";
export { askVerificationEmail } from "./askVerificationEmail";
export type { BrandingActor, BrandingSettingsView } from "./brandingSettings";
export { getBrandingSettings, updateBranding } from "./brandingSettings";
export { changeAccessLevel } from "./changeAccessLevel";
export { changeOwnPassword } from "./changeOwnPassword";
export { changePassword } from "./changePassword";
export { changeUserStatus } from "./changeUserStatus";
export { changeUserType } from "./changeUserType";
export { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./commonPasswords";
export { confirmEmail } from "./confirmEmail";
export { confirmPasswordReset } from "./confirmPasswordReset";
export { esrtSyncStateConsumer } from "./consumers/esrtSyncState";
export { createInvitedUser, invitationPendingOf, resendInvitation } from "./createInvitedUser";
export {
  createDemoUsers,
  DEMO_ROLES,
  type DemoRoleUser,
  type DemoUser,
  type DemoUsers,
  demoRoleUsers,
  demoUserCounts,
  demoUserIds,
  removeDemoUsers,
} from "./demoUsers";
export { auditExport, exportBatches } from "./directory/exportUsers";
export type { DirectoryFacets, YesNoCount } from "./directory/facets";
export { userDirectoryFacets } from "./directory/facets";
export { userFilterWhere } from "./directory/filter";
export type { DirectoryUser } from "./directory/searchUsers";
export { DIRECTORY_COLUMNS, directoryPage, searchUsers } from "./directory/searchUsers";
export type { UserErrorCode } from "./errors";
export { isUserError, UserError, userErrorCodes } from "./errors";
export { findSessionUser } from "./findSessionUser";
export { findUserByUniqueId } from "./findUserByUniqueId";
export {
  FALLBACK_BRANDING,
  findStoredBranding,
  getPublicBranding,
  type StoredBranding,
} from "./getPublicBranding";
export { getSecurityQuestions } from "./getSecurityQuestions";
export { ADMIN_SESSIONS_MESSAGE, assertMaySeeSessions, grantableTypes } from "./grants";
export { type ImportReport, importClients } from "./jobs/importClients";
export { startUserJobRunner } from "./jobs/runner";
export type { UserJobItemPage, UserJobItemView, UserJobView } from "./jobs/userJobs";
export { getUserJob, listUserJobItems, listUserJobs, startUserBulkJob } from "./jobs/userJobs";
export { findLoginAccount, type LoginOutcome, loginUser, recordLogin } from "./loginUser";
export { lookUpUser } from "./lookUpUser";
export type { AccountActionResult, NoteHistoryView } from "./manageUser";
export {
  clearSecurityQuestions,
  listNoteHistory,
  markEmailVerified,
  revokeUserSessions,
  sendPasswordReset,
  sendVerificationEmail,
  updateUserProfile,
} from "./manageUser";
export { issueToken } from "./oneTimeTokens";
export { hashPassword, verifyPassword } from "./passwords";
export type { QuestionReader } from "./readSecurityQuestions";
export { readSecurityQuestions } from "./readSecurityQuestions";
export { recordSignOut } from "./recordSignOut";
export { registerUser } from "./registerUser";
export { requestPasswordReset } from "./requestPasswordReset";
export { resendVerification } from "./resendVerification";
export { resetPassword } from "./resetPassword";
export { saveOwnSecurityQuestions } from "./saveOwnSecurityQuestions";
export type { SecurityActor, SecuritySettingsView } from "./securitySettings";
export {
  getSecuritySettings,
  OWN_QUESTIONS_FIRST_MESSAGE,
  passwordPolicy,
  SESSION_TIMINGS,
  type SessionLimit,
  sessionAwaitsVerification,
  sessionLimitOf,
  signInRateRules,
  signOutEveryoneElse,
  updateSecuritySettings,
} from "./securitySettings";
export { DEFAULT_BRANDING, generatePassword, type SeededAdmin, seedUserDefaults } from "./seedUserDefaults";
export { setSecurityQuestions } from "./setSecurityQuestions";
export { signIn } from "./signIn";
export { signUp } from "./signUp";
export { storeNewPassword } from "./storeNewPassword";
export {
  assertRoleSwitchAvailable,
  NOT_A_DEMO_USER_MESSAGE,
  ROLE_SWITCH_ABSENT_MESSAGE,
  roleSwitchAvailable,
  switchToDemoUser,
} from "./switchToDemoUser";
export { syncSnapshot } from "./syncSnapshot";
export { toSafeUser } from "./toSafeUser";
// Two-factor sign-in (issue 20)
export {
  type AdminTwoFactorView,
  addPasskey,
  adminTwoFactorView,
  confirmAuthenticator,
  getTwoFactorStatus,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  removeAuthenticator,
  removePasskey,
  renamePasskey,
  resetTwoFactor,
  startAuthenticator,
  type TwoFactorStatus,
  turnOffTwoFactor,
} from "./twoFactor/manageTwoFactor";
export { SECOND_FACTOR_METHODS, type SecondFactorMethod } from "./twoFactor/methods";
export { assertionOptions, type PasskeyView, type RelyingParty } from "./twoFactor/passkeys";
export { RECOVERY_CODE_COUNT } from "./twoFactor/recoveryCodes";
export {
  confirmIdentity,
  type IdentityProof,
  PENDING_TWO_FACTOR_MS,
  type SecondFactorProof,
  signInSecondFactor,
  signInWithPasskey,
} from "./twoFactor/secondFactor";
export { totpCodeAt } from "./twoFactor/totp";
export { generateUniqueId } from "./uniqueId";
export { updateNotes } from "./updateNotes";
export {
  type ClientSummary,
  findUserContact,
  findUserContacts,
  findUserNames,
  searchActiveClients,
  type UserContact,
  withUserContacts,
} from "./userContacts";
export type { DayCount, UserFigures } from "./userFigures";
export { userFigures } from "./userFigures";
export { verifyEmail } from "./verifyEmail";
export { verifySecurityAnswers } from "./verifySecurityAnswers";
// The worker entry: the service's event consumers and background work (services/registry.ts).
export { consumers, startWorkers } from "./worker";
