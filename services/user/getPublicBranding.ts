import type { PublicBranding } from "@schema/api/user";
import type { Db, Tx } from "@services/shared/db";

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

/** What an email shows of the branding, as stored, without the seed defaults' fallbacks. */
export interface StoredBranding {
  title: string;
  logoUrl: string;
  supportPhone: string | null;
  consultationEmail: string | null;
}

/**
 * The product title, logo, support phone and consultation email of the branding row as saved, or
 * null when the seed has not made it: for the email service, which reads them as it renders each
 * email (in its consumer's transaction, so an email carries the current branding in its layout) and
 * applies fallbacks of its own. Never locks the row.
 * @throws Prisma errors.
 */
export async function findStoredBranding(client: Tx | Db): Promise<StoredBranding | null> {
  const q = "prisma" in client ? client.prisma : client;
  return q.brandingConfig.findFirst({
    orderBy: { id: "asc" },
    select: { title: true, logoUrl: true, supportPhone: true, consultationEmail: true },
  });
}
