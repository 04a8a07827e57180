import { z } from "zod";
import { text } from "./primitives";
import { emailSchema, phoneSchema } from "./user";

// The branding settings (spec §5 "Branding", issue 12): one schema for the admin form and the
// server, with the spec's messages word for word where the spec gives them.

export const BRANDING_MESSAGES = {
  titleRequired: "Title is required",
  titleTooLong: "Title must be less than 100 characters",
  logoRequired: "Logo URL is required",
  logoInvalid: "Please enter a valid URL",
  logoScheme: "The logo URL must start with https:// or /",
  phoneRequired: "Support phone is required",
  hoursRequired: "Business hours are required",
  hoursTooLong: "Business hours must be at most 100 characters",
} as const;

export const BRANDING_TITLE_MAX = 100;
export const BRANDING_LOGO_URL_MAX = 2048;

/**
 * A logo address the page may load: an absolute https URL or a path on the portal itself ("/logo.svg").
 * The Content Security Policy allows images from the portal and from https only.
 */
export function logoUrlKind(value: string): "https" | "path" | "other-scheme" | "invalid" {
  if (/^\/(?![/\\])/.test(value)) {
    try {
      new URL(value, "https://portal.invalid");
      return /\s/.test(value) ? "invalid" : "path";
    } catch {
      return "invalid";
    }
  }
  if (!URL.canParse(value) || /\s/.test(value)) return "invalid";
  const url = new URL(value);
  if (!url.hostname) return "invalid";
  return url.protocol === "https:" ? "https" : "other-scheme";
}

export const brandingSchema = z.object({
  title: text()
    .trim()
    .min(1, BRANDING_MESSAGES.titleRequired)
    .max(BRANDING_TITLE_MAX, BRANDING_MESSAGES.titleTooLong),
  logoUrl: text()
    .trim()
    .min(1, BRANDING_MESSAGES.logoRequired)
    .max(BRANDING_LOGO_URL_MAX, BRANDING_MESSAGES.logoInvalid)
    .superRefine((value, ctx) => {
      if (value === "") return;
      const kind = logoUrlKind(value);
      if (kind === "invalid") ctx.addIssue({ code: "custom", message: BRANDING_MESSAGES.logoInvalid });
      else if (kind === "other-scheme")
        ctx.addIssue({ code: "custom", message: BRANDING_MESSAGES.logoScheme });
    }),
  supportPhone: text()
    .trim()
    .min(1, BRANDING_MESSAGES.phoneRequired)
    .max(40, "Please enter a valid phone number")
    .pipe(phoneSchema),
  consultationEmail: emailSchema,
  businessHours: text()
    .trim()
    .min(1, BRANDING_MESSAGES.hoursRequired)
    .max(100, BRANDING_MESSAGES.hoursTooLong),
});
export type BrandingInput = z.input<typeof brandingSchema>;
export type Branding = z.output<typeof brandingSchema>;
