import type { UserTypeName } from "../validation/user";

// Shapes the REST shims answer and the web client reads (spec §3, §7). Shared so both sides
// type-check against one contract.

/** A user as any answer may show it: never a password, hash, token or security answer. */
export interface SafeUser {
  id: number;
  uniqueId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  companyName: string | null;
  userType: UserTypeName;
  notes: string | null;
  /** ISO date-time */
  createdAt: string;
  /** ISO date-time */
  lastLoginAt: string | null;
  accessLevel: "full" | "limited";
  esrtSynced: boolean;
  userStatus: "active" | "inactive" | "archived";
  emailVerified: boolean;
  securityQuestionsSet: boolean;
  securityLevel: "standard" | "enhanced";
  /** the permissions the user holds (the permission matrix of DECISIONS.md) */
  permissions: string[];
  /**
   * on the signed-in user's own answers: this session can only verify the email (the address is
   * unverified while the security settings require a verified one); absent otherwise
   */
  needsVerification?: true;
  /**
   * on the signed-in user's own answers: this session can only enrol a second factor (the security
   * settings require one of the user, who holds none); absent otherwise (issue 20)
   */
  needsTwoFactorEnrolment?: true;
}

/** The public card of a user the console shows: the answer of GET /api/users/by-uniqueid/{uniqueId} (spec §7). */
export interface UserCard {
  id: number;
  uniqueId: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  esrtSynced: boolean;
}

/** Answer of POST /api/login for an enhanced-security user: one more step before the session. */
export interface SecurityChallenge {
  needsSecurityAnswer: true;
  userId: number;
  question: { index: number; text: string };
}

/** Answer of POST /api/login for a user with a second factor: no session until it is given (issue 20). */
export interface TwoFactorChallenge {
  twoFactorRequired: true;
  /** "totp", "passkey", "recovery_code": what the user holds */
  methods: string[];
}

/** Answer of GET /api/auth/check-permissions (spec §3, Permission check result). */
export interface PermissionCheckResult {
  isAdmin: boolean;
  hasPermissions: boolean;
  exactPermissions: string[];
  message: string;
}

/** Error bodies of the REST shims (spec §8 reads status and needsVerification on login). */
export interface ApiErrorBody {
  message: string;
  /** the error's code (VALIDATION_FAILED, UNAUTHENTICATED, ... INTERNAL) */
  code?: string;
  /** on a server error (5xx): the request's id, for the user to quote; the details are in the log */
  requestId?: string;
  status?: string;
  needsVerification?: boolean;
  /** POST /api/user/notes failures carry the reason here (spec §8, 'Update Failed') */
  error?: string;
  /** field → messages, for 400 validation failures */
  errors?: Record<string, string[]>;
}

/** Links the emails carry; the /auth page reads these query parameters. */
export const AUTH_LINKS = {
  verifyEmail: (baseUrl: string, token: string) =>
    `${baseUrl}/auth?mode=verify-email&token=${encodeURIComponent(token)}`,
  resetPassword: (baseUrl: string, token: string) =>
    `${baseUrl}/auth?mode=reset-password&token=${encodeURIComponent(token)}`,
  setPassword: (baseUrl: string, token: string) =>
    `${baseUrl}/auth?mode=set-password&token=${encodeURIComponent(token)}`,
} as const;

/** Answer of GET /api/branding: what every page may show (DECISIONS.md, Branding). */
export interface PublicBranding {
  /** the product title ('Welcome to {product} Portal', the top bar's brand) */
  title: string;
  logoUrl: string;
  supportPhone: string;
  consultationEmail: string;
  businessHours: string;
}
