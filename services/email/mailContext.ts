import { config } from "../shared/config";
import type { Tx } from "../shared/db";

/** What every email of the portal needs besides its own variables. */
export interface MailContext {
  /** the product name, from branding (spec: 'Welcome to {product} Portal') */
  productName: string;
  supportPhone: string;
  /** where the team's notifications go: TEAM_EMAIL, else email_settings.teamAddress */
  teamAddress: string;
  /** the portal's public address, without a trailing slash, for links in emails */
  publicUrl: string;
}

// Fallbacks used only when the seed has not run (the seed writes both rows).
const FALLBACK_PRODUCT = "ESRT";
const FALLBACK_TEAM = "team@portal.localhost";

/** The portal's public address for links: PUBLIC_URL, else http://localhost:PORT. */
export function publicUrl(): string {
  const cfg = config();
  return (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, "");
}

/**
 * Reads the context of an email inside the consumer's transaction. The product name and support
 * phone come from branding_config, read-only: branding is platform configuration that every part of
 * the portal shows, and reading it at send time means an email always carries the current title
 * (user events do not carry it). The email service writes only its own tables.
 * @throws when the database refuses the reads.
 */
export async function loadMailContext(tx: Tx): Promise<MailContext> {
  // one round trip: a consumer's transaction reads this for every email it queues
  const [row] = await tx.$queryRaw<
    { title: string | null; supportPhone: string | null; teamAddress: string | null }[]
  >`
    SELECT b.title, b."supportPhone", s."teamAddress"
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT title, "supportPhone" FROM branding_config ORDER BY id LIMIT 1) AS b ON true
    LEFT JOIN email_settings AS s ON s.id = 1`;
  return {
    productName: row?.title ?? FALLBACK_PRODUCT,
    supportPhone: row?.supportPhone ?? "",
    teamAddress: config().TEAM_EMAIL ?? row?.teamAddress ?? FALLBACK_TEAM,
    publicUrl: publicUrl(),
  };
}
