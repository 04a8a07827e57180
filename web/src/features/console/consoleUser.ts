import type { SafeUser } from "@schema/api/user";
import { useBranding } from "@web/data/rest";
import { DEFAULT_BRANDING, type PublicBranding } from "@web/lib/branding";

/** What the user console shows of a user: the signed-in user, or the preview's demo user. */
export type ConsoleUser = Pick<
  SafeUser,
  | "id"
  | "uniqueId"
  | "firstName"
  | "lastName"
  | "email"
  | "phone"
  | "companyName"
  | "userType"
  | "notes"
  | "esrtSynced"
>;

/** The fake user of /preview-user-console (spec §2): nothing about them comes from the server. */
export const DEMO_USER: ConsoleUser = {
  id: 0,
  uniqueId: "ESRT-DEM0USER",
  firstName: "Demo",
  lastName: "User",
  email: "demo.user@example.com",
  phone: "(555) 010-0199",
  companyName: "Demo Receivables Co.",
  userType: "client",
  notes: null,
  esrtSynced: true,
};

/** How to reach the consultation team: phone, consultation email and business hours. */
export interface ConsultationContact {
  phone: string;
  email: string;
  businessHours: string;
}

/**
 * The consultation contact before branding has answered (the preview's demo default): the branding
 * defaults (shared DECISIONS, Branding).
 */
export const CONSULTATION_CONTACT: ConsultationContact = consultationContact(DEFAULT_BRANDING);

/** The consultation contact the branding names (GET /api/branding). */
export function consultationContact(branding: PublicBranding): ConsultationContact {
  return {
    phone: branding.supportPhone,
    email: branding.consultationEmail,
    businessHours: branding.businessHours,
  };
}

/** The consultation contact of the portal's branding, the defaults until the server answers. */
export function useConsultationContact(): ConsultationContact {
  return consultationContact(useBranding());
}

/** Whether the user is an administrator (mainAdmin or userAdmin), who sees no welcome overlay. */
export function isAdminType(userType: ConsoleUser["userType"]): boolean {
  return userType === "mainAdmin" || userType === "userAdmin";
}
