import { randomInt } from "node:crypto";
import type { Config } from "@services/shared/config";
import type { Tx } from "@services/shared/db";
import { hashPassword } from "./passwords";
import { generateUniqueId } from "./uniqueId";

// The user service's defaults for a new portal (services/seed.ts runs them in one transaction with
// the other services'): branding, security settings and the first mainAdmin. Idempotent: running it
// again changes nothing, and never overwrites what an admin edited.

/** The branding a new portal starts with. */
export const DEFAULT_BRANDING = {
  title: "ESRT",
  logoUrl: "/logo.svg",
  supportPhone: "(555) 010-0100",
  consultationEmail: "consultations@portal.localhost",
  businessHours: "9AM-5PM PST",
} as const;

/** The first mainAdmin as one seed run found or made it. */
export interface SeededAdmin {
  id: number;
  username: string;
  email: string;
  /** true when this run created the first mainAdmin */
  created: boolean;
  /** only when this run created the admin without ADMIN_PASSWORD; it is also logged once */
  generatedPassword?: string;
}

const PASSWORD_LETTERS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const PASSWORD_SPECIALS = "!@#$%^&*-_=+";

/** A random 20-character password with letters, a digit and a special character. */
export function generatePassword(): string {
  const chars = Array.from({ length: 18 }, () => PASSWORD_LETTERS[randomInt(PASSWORD_LETTERS.length)] ?? "a");
  chars.splice(randomInt(chars.length + 1), 0, String(randomInt(10)));
  chars.splice(randomInt(chars.length + 1), 0, PASSWORD_SPECIALS[randomInt(PASSWORD_SPECIALS.length)] ?? "!");
  return chars.join("");
}

async function seedFirstAdmin(tx: Tx, cfg: Config): Promise<SeededAdmin> {
  const existing = await tx.user.findFirst({ where: { userType: "mainAdmin" }, orderBy: { id: "asc" } });
  if (existing) {
    return { id: existing.id, username: existing.username, email: existing.email, created: false };
  }
  const generatedPassword = cfg.ADMIN_PASSWORD ? undefined : generatePassword();
  const password = cfg.ADMIN_PASSWORD ?? generatedPassword ?? "";
  const email = (cfg.ADMIN_EMAIL ?? "admin@portal.localhost").toLowerCase();
  const admin = await tx.user.create({
    data: {
      uniqueId: generateUniqueId(),
      username: cfg.ADMIN_USERNAME,
      email,
      password: await hashPassword(password),
      firstName: "Portal",
      lastName: "Administrator",
      userType: "mainAdmin",
      accessLevel: "full",
      emailVerified: true,
    },
  });
  return { id: admin.id, username: admin.username, email: admin.email, created: true, generatedPassword };
}

/**
 * Whether a new database starts with two-factor sign-in required of administrators (issue 20):
 * TWO_FACTOR_REQUIRED_FOR_ADMINS when set, else on in production only, so that development and
 * test set-ups stay one step.
 */
export function twoFactorStartsRequired(cfg: Config): boolean {
  return cfg.TWO_FACTOR_REQUIRED_FOR_ADMINS ?? cfg.NODE_ENV === "production";
}

/**
 * The user service's rows a new portal needs, in the seed's transaction: branding and security
 * settings when missing, and a first mainAdmin when none exists (from ADMIN_EMAIL/ADMIN_PASSWORD,
 * or with a generated password). Answers that admin.
 * @throws when the database refuses a write (e.g. the admin's username or email is taken by a user
 * who is not a mainAdmin).
 */
export async function seedUserDefaults(tx: Tx, cfg: Config): Promise<SeededAdmin> {
  if ((await tx.brandingConfig.count()) === 0) {
    await tx.brandingConfig.create({ data: { ...DEFAULT_BRANDING, updatedBy: "seed" } });
  }
  await tx.securitySettings.upsert({
    where: { id: 1 },
    create: { id: 1, updatedBy: "seed", requireTwoFactorForAdmins: twoFactorStartsRequired(cfg) },
    update: {},
  });
  return seedFirstAdmin(tx, cfg);
}
