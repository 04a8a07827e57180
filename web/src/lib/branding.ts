import type { PublicBranding } from "@schema/api/user";
import { getQueryFn } from "@web/data/api";
import { DEFAULT_SUPPORT_PHONE } from "./apiErrors";

export type { PublicBranding } from "@schema/api/user";

/** The default brand title until branding settings are read from the server. */
export const DEFAULT_BRAND_TITLE = "ESRT";

/** Cache key (and path) of the public branding. */
export const BRANDING_PATH = "/api/branding";

/**
 * Branding is read again once a minute old (issue 12: a change shows on every page within a minute
 * or on its next load), an exception to the data layer's never-stale default.
 */
export const BRANDING_TTL_MS = 60 * 1000;

/** The branding the shell shows until the server answers (and when it cannot be reached). */
export const DEFAULT_BRANDING: PublicBranding = {
  title: DEFAULT_BRAND_TITLE,
  logoUrl: "/logo.svg",
  supportPhone: DEFAULT_SUPPORT_PHONE,
  consultationEmail: "consultations@portal.localhost",
  businessHours: "9AM-5PM PST",
};

/**
 * Lays an answer of GET /api/branding over the defaults: a missing or empty field keeps its default,
 * so the shell never shows a blank title or phone.
 */
export function brandingWithDefaults(answer: Partial<PublicBranding> | null | undefined): PublicBranding {
  const merged: PublicBranding = { ...DEFAULT_BRANDING };
  if (!answer) return merged;
  for (const key of Object.keys(DEFAULT_BRANDING) as Array<keyof PublicBranding>) {
    const value = answer[key];
    if (typeof value === "string" && value.trim() !== "") merged[key] = value;
  }
  return merged;
}

const getBranding = getQueryFn<PublicBranding>({ on401: "throw" });

/**
 * GET /api/branding.
 * @throws Error "<status>: <body>" for a non-OK answer, TypeError when the network fails.
 */
export async function fetchBranding(): Promise<PublicBranding> {
  return brandingWithDefaults(await getBranding(BRANDING_PATH));
}
