import type { PublicBranding } from "@schema/api/user";
import { AppError } from "@services/shared/errors";
import {
  type BrandingActor,
  type BrandingSettingsView,
  getBrandingSettings,
  getPublicBranding,
  updateBranding,
} from "@services/user";
import { withoutNulls } from "../args";
import { builder, PUBLIC } from "../builder";
import type { GraphQLContext } from "../context";
import { runIdentity } from "./identityRun";

const BrandingRef = builder.objectRef<PublicBranding>("Branding").implement({
  description: "The public branding (DECISIONS.md, Branding).",
  fields: (t) => ({
    title: t.exposeString("title"),
    logoUrl: t.exposeString("logoUrl"),
    supportPhone: t.exposeString("supportPhone"),
    consultationEmail: t.exposeString("consultationEmail"),
    businessHours: t.exposeString("businessHours"),
  }),
});

const BrandingSettingsRef = builder.objectRef<BrandingSettingsView>("BrandingSettings").implement({
  description: "The branding as its administrators edit it, with who changed it last and when (issue 12).",
  fields: (t) => ({
    title: t.exposeString("title"),
    logoUrl: t.exposeString("logoUrl"),
    supportPhone: t.exposeString("supportPhone"),
    consultationEmail: t.exposeString("consultationEmail"),
    businessHours: t.exposeString("businessHours"),
    updatedAt: t.field({ type: "DateTime", resolve: (s) => s.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
  }),
});

const BrandingInput = builder.inputType("BrandingInput", {
  description: "The branding form (schema/validation/branding.ts checks every field).",
  fields: (t) => ({
    title: t.string({ required: true }),
    logoUrl: t.string({ required: true }),
    supportPhone: t.string({ required: true }),
    consultationEmail: t.string({ required: true }),
    businessHours: t.string({ required: true }),
  }),
});

/** The signed-in administrator as the branding records them. @throws AppError UNAUTHENTICATED */
async function actorOf(ctx: GraphQLContext): Promise<BrandingActor> {
  const id = ctx.currentUser?.id;
  const user = id === undefined ? null : await ctx.db.prisma.user.findUnique({ where: { id } });
  if (!user) throw new AppError("UNAUTHENTICATED", "Unauthorized - Please log in");
  return { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() };
}

builder.queryField("branding", (t) =>
  t.field({
    type: BrandingRef,
    description: "The product title, logo, support phone, consultation email and business hours.",
    authScopes: PUBLIC,
    resolve: (_root, _args, ctx) => getPublicBranding({ db: ctx.db }),
  }),
);

builder.queryField("brandingSettings", (t) =>
  t.field({
    type: BrandingSettingsRef,
    description: "The branding with its last change (manage:config).",
    authScopes: { manageConfig: true },
    resolve: (_root, _args, ctx) => getBrandingSettings(ctx.db),
  }),
);

builder.mutationField("updateBranding", (t) =>
  t.field({
    type: BrandingSettingsRef,
    description: "Changes the branding (manage:config); every page shows it within a minute, audited.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: BrandingInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        updateBranding({
          db: ctx.db,
          actor: await actorOf(ctx),
          input: withoutNulls(args.input),
          ip: ctx.req.ip ?? null,
        }),
      ),
  }),
);
