import type { PublicBranding } from "@schema/api/user";
import type { Db } from "@services/shared/db";

/** The seed's branding (services/user/seedUserDefaults.ts DEFAULT_BRANDING), for a database without the row. */
export const FALLBACK_BRANDING: PublicBranding = {
  title: "ESRT",
  logoUrl: "/logo.svg",
  supportPhone: "(555) 010-0100",
  consultationEmail: "consultations@portal.localhost",
  businessHours: "9AM-5PM PST",
};

/**
 * The branding every page may show (title, logo, support phone, consultation email, business
 * hours) from branding_config, each missing value taken from the seed defaults.
 * @throws Prisma errors.
 */
export async function getPublicBranding(props: { db: Db }): Promise<PublicBranding> {
  const row = await props.db.prisma.brandingConfig.findFirst({ orderBy: { id: "asc" } });
  return {
    title: row?.title || FALLBACK_BRANDING.title,
    logoUrl: row?.logoUrl || FALLBACK_BRANDING.logoUrl,
    supportPhone: row?.supportPhone || FALLBACK_BRANDING.supportPhone,
    consultationEmail: row?.consultationEmail || FALLBACK_BRANDING.consultationEmail,
    businessHours: row?.businessHours || FALLBACK_BRANDING.businessHours,
  };
}
