import "./branding.css";
import { Alignment, Button, Card, Classes, H2, Navbar } from "@blueprintjs/core";
import { Reset } from "@blueprintjs/icons";
import { type BrandingInput, brandingSchema } from "@schema/validation/branding";
import { BrandLogo } from "@web/features/shell/BrandLogo";
import {
  BrandingSettingsDocument,
  type BrandingSettingsFieldsFragment,
  UpdateBrandingDocument,
} from "@web/generated/graphql";
import { SaveButton, settingsPage, storedFieldsOf, useSettingsSave } from "@web/ui/SettingsScreen";
import { TextField, type TextFieldProps } from "@web/ui/TextField";
import { useId } from "react";
import { LastChanged } from "./LastChanged";

/**
 * Branding Settings (spec §2 and §5, manage:config; issue 12): the product title of the top bar and
 * of 'Welcome to {product} Portal', the logo, the support phone of the inactive-account message, the
 * consultation email and the business hours, with a live preview. A save shows at once here and on
 * every other page within a minute.
 */
export const BrandingPage = settingsPage({
  className: "branding-page",
  title: "Branding Settings",
  what: "the branding",
  query: BrandingSettingsDocument,
  pick: (data) => data.brandingSettings,
  children: (settings) => <BrandingForm settings={settings} />,
});

function formValuesOf(settings: BrandingSettingsFieldsFragment): BrandingInput {
  return storedFieldsOf(brandingSchema, settings);
}

type Field = keyof BrandingInput;

const FIELDS: {
  name: Field;
  label: string;
  helper?: string;
  type?: TextFieldProps["type"];
  placeholder?: string;
}[] = [
  { name: "title", label: "Product title", helper: "The top bar and 'Welcome to {title} Portal'." },
  {
    name: "logoUrl",
    label: "Logo URL",
    helper: "An https:// address or a path on the portal, such as /logo.svg.",
    type: "url",
    placeholder: "https://example.com/logo.png",
  },
  {
    name: "supportPhone",
    label: "Support phone",
    helper: "Named in the message an inactive account gets at sign-in.",
    type: "tel",
  },
  { name: "consultationEmail", label: "Consultation email", type: "email" },
  { name: "businessHours", label: "Business hours", placeholder: "9AM-5PM PST" },
];

/** The branding form, checked with the shared schema and its messages, beside its live preview. */
function BrandingForm({ settings }: { settings: BrandingSettingsFieldsFragment }) {
  const baseId = useId();
  const {
    form,
    submit: handleSubmit,
    saving,
  } = useSettingsSave({
    schema: brandingSchema,
    settings,
    valuesOf: formValuesOf,
    mutation: UpdateBrandingDocument,
    query: BrandingSettingsDocument,
    variablesOf: (checked) => ({ input: checked }),
    answerOf: (data) => data.updateBranding,
    success: "MutationUpdateBrandingSuccess",
    saved: () => ({ title: "Branding saved", description: "Every page shows it within a minute." }),
    failure: "Failed to save branding",
  });
  const errors = form.formState.errors;
  const values = form.watch();

  // the preview shows a field as typed once it could be saved, the stored value until then: a logo
  // address half typed ("htt", "not a url") is never requested
  const previewed = (name: Field): string => {
    const checked = brandingSchema.shape[name].safeParse(values[name]);
    return checked.success ? checked.data : settings[name];
  };
  return (
    <div className="branding-layout">
      <Card className="branding-form-card">
        <form onSubmit={handleSubmit} noValidate aria-label="Branding settings" className="branding-form">
          {FIELDS.map((field) => (
            <TextField
              key={field.name}
              id={`${baseId}-${field.name}`}
              label={field.label}
              registration={form.register(field.name)}
              error={errors[field.name]?.message}
              hint={field.helper}
              type={field.type}
              placeholder={field.placeholder}
            />
          ))}
          <div className="branding-actions">
            <SaveButton text="Save branding" loading={saving} />
            <Button
              icon={<Reset />}
              text="Undo changes"
              disabled={!form.formState.isDirty}
              onClick={() => form.reset(formValuesOf(settings))}
            />
          </div>
          <LastChanged updatedAt={settings.updatedAt} updatedBy={settings.updatedBy} paragraph />
        </form>
      </Card>
      <BrandingPreview
        title={previewed("title")}
        logoUrl={previewed("logoUrl")}
        supportPhone={previewed("supportPhone")}
        consultationEmail={previewed("consultationEmail")}
        businessHours={previewed("businessHours")}
      />
    </div>
  );
}

interface BrandingPreviewProps {
  title: string;
  logoUrl: string;
  supportPhone: string;
  consultationEmail: string;
  businessHours: string;
}

/** The top bar, the registration's welcome and the contact details as they will look, while editing. */
function BrandingPreview(props: BrandingPreviewProps) {
  const headingId = useId();
  return (
    <section className="branding-preview" aria-labelledby={headingId}>
      <H2 id={headingId}>Preview</H2>
      <div className="branding-preview-frame" data-testid="branding-preview">
        <Navbar className="branding-preview-bar">
          <Navbar.Group align={Alignment.START}>
            <span className="portal-brand">
              <BrandLogo src={props.logoUrl} />
              <span className="portal-brand-title">{props.title}</span>
            </span>
          </Navbar.Group>
        </Navbar>
        <div className="branding-preview-body">
          <p>
            <strong>Registration successful</strong>
            <br />
            Welcome to {props.title} Portal
          </p>
          <p className={Classes.TEXT_MUTED}>
            This account has been deactivated. Please contact support at {props.supportPhone} for assistance.
          </p>
          <p className={Classes.TEXT_MUTED}>
            {props.consultationEmail} · {props.businessHours}
          </p>
        </div>
      </div>
    </section>
  );
}
