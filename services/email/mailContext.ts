import { config } from "@services/shared/config";
import type { Tx } from "@services/shared/db";
import { findStoredBranding } from "@services/user";
import type { EmailBranding } from "./emailLayout";
import type { EmailTemplateParts } from "./renderEmail";

/** What every email of the portal needs besides its own variables; its branding is the layout's. */
export interface MailContext extends EmailBranding {
  /** the product name, from branding (spec: 'Welcome to {product} Portal') */
  productName: string;
  supportPhone: string;
  /** where the team's notifications go: TEAM_EMAIL, else email_settings.teamAddress */
  teamAddress: string;
  /** the portal's public address, without a trailing slash, for links in emails */
  publicUrl: string;
  /**
   * The templates read with the context, by key: the stored one, or null when email_templates has
   * no row for the key (the seeded default applies). queueEmail reads any other key itself.
   */
  templates?: ReadonlyMap<string, EmailTemplateParts | null>;
}

// Fallbacks used only when the seed has not run (the seed writes both rows).
const FALLBACK_PRODUCT = "ESRT";
const FALLBACK_LOGO = "/logo.svg";
const FALLBACK_TEAM = "team@portal.localhost";

/** The portal's public address for links: PUBLIC_URL, else http://localhost:PORT. */
export function publicUrl(): string {
  const cfg = config();
  return (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, "");
}

interface ContextRow {
  teamAddress: string | null;
  templates: unknown;
}

function isTemplateRow(value: unknown): value is EmailTemplateParts & { key: string } {
  if (typeof value !== "object" || value === null) return false;
  const row: Record<string, unknown> = { ...value };
  return ["key", "subject", "html", "text"].every((field) => typeof row[field] === "string");
}

/**
 * Reads the context of an email inside the consumer's transaction, with the templates of
 * `templateKeys` (the ones the consumer is about to queue): a consumer's transaction reads this for
 * every event it handles, in two round trips. The email service's own rows (its settings and the
 * templates) come in one; the branding (product name, logo, support phone, consultation email)
 * comes from the user service's face (findStoredBranding: branding_config is the user service's
 * table), read as each email is rendered so it always carries the current branding in its layout
 * and variables (user events do not carry it).
 * @throws when the database refuses the reads.
 */
export async function loadMailContext(tx: Tx, templateKeys: readonly string[] = []): Promise<MailContext> {
  const branding = await findStoredBranding(tx);
  const [row] = await tx.$queryRaw<ContextRow[]>`
    SELECT s."teamAddress",
      (SELECT coalesce(json_agg(json_build_object('key', t.key, 'subject', t.subject, 'html', t.html, 'text', t.text)), '[]')
       FROM email_templates AS t WHERE t.key = ANY(${[...templateKeys]}::text[])) AS templates
    FROM (SELECT 1) AS one
    LEFT JOIN email_settings AS s ON s.id = 1`;
  const templates = new Map<string, EmailTemplateParts | null>(templateKeys.map((key) => [key, null]));
  for (const template of Array.isArray(row?.templates) ? row.templates : []) {
    if (isTemplateRow(template)) {
      templates.set(template.key, { subject: template.subject, html: template.html, text: template.text });
    }
  }
  return {
    productName: branding?.title || FALLBACK_PRODUCT,
    logoUrl: branding?.logoUrl || FALLBACK_LOGO,
    supportPhone: branding?.supportPhone ?? "",
    consultationEmail: branding?.consultationEmail ?? "",
    teamAddress: config().TEAM_EMAIL ?? row?.teamAddress ?? FALLBACK_TEAM,
    publicUrl: publicUrl(),
    templates,
  };
}
