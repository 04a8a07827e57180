import { builder, PUBLIC, type Types } from "@gateway/graphql/builder";
import { settingsChangeBy } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import type { PublicBranding } from "@schema/api/user";
import { AppError } from "@services/shared/errors";
import {
  type BrandingSettingsView,
  getBrandingSettings,
  getPublicBranding,
  updateBranding,
} from "@services/user";

/** The public branding's fields, shared by the public type and the administrators' settings. */
function brandingFields<S extends PublicBranding>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, S>) {
  return {
    title: t.string({ resolve: (b) => b.title }),
    logoUrl: t.string({ resolve: (b) => b.logoUrl }),
    supportPhone: t.string({ resolve: (b) => b.supportPhone }),
    consultationEmail: t.string({ resolve: (b) => b.consultationEmail }),
    businessHours: t.string({ resolve: (b) => b.businessHours }),
  };
}

const BrandingRef = builder.objectRef<PublicBranding>("Branding").implement({
  description:
    "The public branding every page shows: the product title, logo, support phone, consultation email and business hours.",
  fields: brandingFields,
});

const BrandingSettingsRef = builder.objectRef<BrandingSettingsView>("BrandingSettings").implement({
  description: "The branding as its administrators edit it, with who changed it last and when.",
  fields: (t) => ({
    ...brandingFields(t),
    updatedAt: t.field({ type: "DateTime", resolve: (s) => s.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
  }),
});

const BrandingInput = builder.inputType("BrandingInput", {
  description:
    "The branding form: a title of up to 100 characters, a logo at an https:// address or a path on the portal, a phone number, an email address and business hours of up to 100 characters; each field is checked as the form checks it.",
  fields: (t) => ({
    title: t.string({ required: true }),
    logoUrl: t.string({ required: true }),
    supportPhone: t.string({ required: true }),
    consultationEmail: t.string({ required: true }),
    businessHours: t.string({ required: true }),
  }),
});

dbQuery("branding", {
  type: BrandingRef,
  description: "The product title, logo, support phone, consultation email and business hours.",
  authScopes: PUBLIC,
  read: (db) => getPublicBranding({ db }),
});

dbQuery("brandingSettings", {
  type: BrandingSettingsRef,
  description: "The branding with its last change (manage:config).",
  authScopes: { manageConfig: true },
  read: getBrandingSettings,
});

builder.mutationField("updateBranding", (t) =>
  t.field({
    type: BrandingSettingsRef,
    description: "Changes the branding (manage:config); every page shows it within a minute, audited.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: BrandingInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => updateBranding({ ...settingsChangeBy(ctx), input: withoutNulls(args.input) })),
  }),
);
