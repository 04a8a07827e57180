import type { AccessLevel, UserStatus, UserType } from "@web/generated/graphql";

// Words and small rules of the user drawer (issue 11), kept apart from the components.

/** How each user type reads (spec §3; "user" is a registration that asked for client access). */
export { USER_TYPE_LABELS } from "@web/ui/jobs/userJobs";

/** How each status reads. */
export const USER_STATUS_LABELS: Record<UserStatus, string> = {
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
};

/** How each Pro-app access level reads. */
export const ACCESS_LEVEL_LABELS: Record<AccessLevel, string> = {
  full: "Full",
  limited: "Limited",
};

export const USER_STATUSES: readonly UserStatus[] = ["active", "inactive", "archived"];
export const ACCESS_LEVELS: readonly AccessLevel[] = ["full", "limited"];

/**
 * Whether the signed-in administrator, who may grant `grantable`, may change an account of type
 * `current` at all (mirrors services/user/grants.ts; the server still decides).
 */
export function mayManage(current: UserType, grantable: readonly UserType[]): boolean {
  return grantable.includes(current);
}

/** Why a userAdmin sees no sessions of an administrator (the server's refusal, in the same words). */
export const ADMIN_SESSIONS_MESSAGE = "Only a main administrator may see an administrator's sessions.";

/** The profile form's fields, in order, with their labels. */
export const PROFILE_FIELDS = [
  { name: "username", label: "Username", autoComplete: "off", required: true },
  { name: "email", label: "Email", autoComplete: "off", required: true },
  { name: "firstName", label: "First name", autoComplete: "off", required: true },
  { name: "lastName", label: "Last name", autoComplete: "off", required: true },
  { name: "phone", label: "Phone", autoComplete: "off", required: false },
  { name: "companyName", label: "Company", autoComplete: "off", required: false },
] as const;

export type ProfileFieldName = (typeof PROFILE_FIELDS)[number]["name"];

/**
 * Which profile field a server refusal is about, from its words (the registration rules' messages
 * and the uniqueness answers), or null for a refusal of the whole form.
 */
export function fieldOfMessage(message: string): ProfileFieldName | null {
  const text = message.toLowerCase();
  if (text.startsWith("username")) return "username";
  if (text.includes("email")) return "email";
  if (text.startsWith("first name")) return "firstName";
  if (text.startsWith("last name")) return "lastName";
  if (text.includes("phone")) return "phone";
  if (text.startsWith("company")) return "companyName";
  return null;
}

/** A user's second factors in words: "Authenticator app, 2 passkeys, 8 recovery codes left". */
export function twoFactorSummary(state: {
  enabled: boolean;
  authenticator: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}): string {
  if (!state.enabled) return "Password only";
  const parts = [
    ...(state.authenticator ? ["Authenticator app"] : []),
    ...(state.passkeys > 0 ? [state.passkeys === 1 ? "1 passkey" : `${state.passkeys} passkeys`] : []),
    state.recoveryCodesLeft === 1 ? "1 recovery code left" : `${state.recoveryCodesLeft} recovery codes left`,
  ];
  return parts.join(", ");
}

/** A date and time as the drawer shows it, or `empty`. */
export function formatWhen(iso: string | null | undefined, empty = "Never"): string {
  if (!iso) return empty;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return empty;
  return at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
