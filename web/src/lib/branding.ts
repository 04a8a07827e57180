import type { PublicBranding } from "@schema/api/user";
import { useEffect } from "react";
import { getQueryFn } from "./api";
import { DEFAULT_SUPPORT_PHONE } from "./apiErrors";
import { restCache, useRestQuery } from "./restCache";

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

/**
 * The portal's branding (shared DECISIONS, Branding): the product title of the top bar and of
 * 'Welcome to {product} Portal', the support phone of the deactivated-account message, and the
 * consultation contact. Read from GET /api/branding, again on a page's load once a minute old; the
 * defaults until it answers.
 */
export function useBranding(): PublicBranding {
  const { data } = useRestQuery(BRANDING_PATH, fetchBranding, { staleTime: BRANDING_TTL_MS });
  return data ?? DEFAULT_BRANDING;
}

/**
 * Keeps the shell's branding at most a minute stale while the page stays open: once a minute (while
 * the tab is visible) a stale entry is read again; the answer is usually a 304. Used once, by the layout.
 */
export function useBrandingRefresh(): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "hidden" || !restCache.isStale(BRANDING_PATH, BRANDING_TTL_MS)) return;
      restCache.fetch(BRANDING_PATH, fetchBranding, { staleTime: BRANDING_TTL_MS }).catch(() => undefined);
    }, BRANDING_TTL_MS);
    return () => clearInterval(timer);
  }, []);
}

/** Shows saved branding in this tab at once (the admin's page after a save). */
export function applyBranding(branding: Partial<PublicBranding>): void {
  restCache.set(BRANDING_PATH, brandingWithDefaults(branding));
}
