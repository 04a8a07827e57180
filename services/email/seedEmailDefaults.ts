import type { Config } from "@services/shared/config";
import type { Tx } from "@services/shared/db";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";

/**
 * The email service's rows a new portal needs, in the seed's transaction: email_settings (with
 * TEAM_EMAIL as the team address when set) and the default templates that are missing. Never
 * overwrites what an admin edited. Answers the keys of the templates it inserted.
 * @throws when the database refuses a write.
 */
export async function seedEmailDefaults(tx: Tx, cfg: Config): Promise<string[]> {
  await tx.emailSettings.upsert({
    where: { id: 1 },
    create: { id: 1, updatedBy: "seed", ...(cfg.TEAM_EMAIL ? { teamAddress: cfg.TEAM_EMAIL } : {}) },
    update: {},
  });
  const existing = new Set((await tx.emailTemplate.findMany({ select: { key: true } })).map((t) => t.key));
  const missing = DEFAULT_EMAIL_TEMPLATES.filter((t) => !existing.has(t.key));
  if (missing.length > 0) {
    await tx.emailTemplate.createMany({
      data: missing.map((t) => ({ ...t, updatedBy: "seed" })),
      skipDuplicates: true,
    });
  }
  return missing.map((t) => t.key);
}
