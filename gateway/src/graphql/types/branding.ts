import type { PublicBranding } from "../../../../schema/api/user";
import { getPublicBranding } from "../../../../services/user/getPublicBranding";
import { builder, PUBLIC } from "../builder";

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

builder.queryField("branding", (t) =>
  t.field({
    type: BrandingRef,
    description: "The product title, logo, support phone, consultation email and business hours.",
    authScopes: PUBLIC,
    resolve: (_root, _args, ctx) => getPublicBranding({ db: ctx.db }),
  }),
);
