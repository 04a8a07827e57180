import type { PublicBranding } from "@schema/api/user";
import { brandingSchema } from "@schema/validation/branding";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import type { BrandingConfig } from "@services/shared/generated/prisma/client";
import { parse, type SettingsUpdateProps } from "@services/shared/validation";
import { FALLBACK_BRANDING } from "./getPublicBranding";

// The branding settings (issue 12, manage:config, checked by the caller): the product title, logo,
// support phone, consultation email and business hours. One row (the lowest id) holds them; every
// reader (GET /api/branding, the sign-in's inactive-account message, the email service) reads it at
// use, so a change applies without a restart.

/** The settings as the admin page shows them. */
export interface BrandingSettingsView extends PublicBranding {
  updatedAt: Date;
  updatedBy: string | null;
}

/** Who changes the branding: the signed-in administrator. */
export interface BrandingActor {
  id: number;
  name: string;
}

function present(row: BrandingConfig): BrandingSettingsView {
  return {
    title: row.title || FALLBACK_BRANDING.title,
    logoUrl: row.logoUrl || FALLBACK_BRANDING.logoUrl,
    supportPhone: row.supportPhone || FALLBACK_BRANDING.supportPhone,
    consultationEmail: row.consultationEmail || FALLBACK_BRANDING.consultationEmail,
    businessHours: row.businessHours || FALLBACK_BRANDING.businessHours,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

function auditView(view: BrandingSettingsView): PublicBranding {
  const { updatedAt: _at, updatedBy: _by, ...rest } = view;
  return rest;
}

/** The branding row, created with the seed's defaults when the seed has not made it. */
async function brandingRow(db: Db): Promise<BrandingConfig> {
  return (
    (await db.prisma.brandingConfig.findFirst({ orderBy: { id: "asc" } })) ??
    db.prisma.brandingConfig.create({ data: { ...FALLBACK_BRANDING, updatedBy: "seed" } })
  );
}

/** The branding with who changed it last and when. @throws Prisma errors. */
export async function getBrandingSettings(db: Db): Promise<BrandingSettingsView> {
  return present(await brandingRow(db));
}

/**
 * Changes the branding. Every page reads it again within a minute (the web app's cache) and the
 * server's readers at their next use. The change is audited (`branding.updated`) with its before
 * and after; saving the same values again changes nothing and writes no audit row.
 * @throws AppError VALIDATION_FAILED with the shared schema's message.
 */
export async function updateBranding(
  props: SettingsUpdateProps<BrandingActor>,
): Promise<BrandingSettingsView> {
  const input = parse(brandingSchema, props.input);
  const current = await brandingRow(props.db);
  return props.db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM branding_config WHERE id = ${current.id} FOR UPDATE`;
    const before = present(await tx.brandingConfig.findUniqueOrThrow({ where: { id: current.id } }));
    const unchanged = (Object.keys(input) as (keyof typeof input)[]).every(
      (key) => before[key] === input[key],
    );
    if (unchanged) return before;
    const after = present(
      await tx.brandingConfig.update({
        where: { id: current.id },
        data: { ...input, updatedBy: props.actor.name },
      }),
    );
    const changed = (Object.keys(input) as (keyof typeof input)[]).filter(
      (key) => before[key] !== after[key],
    );
    await audit(tx, {
      action: "branding.updated",
      actorId: props.actor.id,
      targetType: "branding_config",
      targetId: current.id,
      ip: props.ip,
      before: { ...auditView(before) },
      after: { ...auditView(after) },
      metadata: { changed },
    });
    return after;
  });
}
