import "@web/ui/toolbars.css";
import { Callout, Classes, H2, H3, Intent, SegmentedControl, Spinner } from "@blueprintjs/core";
import { EmailFrame } from "@web/features/email/EmailParts";
import type { EmailTemplatePreviewQuery } from "@web/generated/graphql";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { useId } from "react";

/** The widths the preview shows an email at: a desktop mail client's, a phone's. */
export type PreviewWidth = "desktop" | "phone";

const WIDTH_OPTIONS: { label: string; value: PreviewWidth }[] = [
  { label: "Desktop", value: "desktop" },
  { label: "Phone", value: "phone" },
];

const isPreviewWidth = (value: string): value is PreviewWidth => value === "desktop" || value === "phone";

/** Props of {@link TemplatePreview}. */
export interface TemplatePreviewProps {
  /** the latest preview the server answered (kept while the next one renders) */
  preview: EmailTemplatePreviewQuery["emailTemplatePreview"] | undefined;
  /** whether the draft can be previewed at all (the schema's rules hold) */
  valid: boolean;
  loading: boolean;
  /** why the preview could not be made, when there is no earlier one to show */
  error?: string;
  width: PreviewWidth;
  onWidthChange(width: PreviewWidth): void;
}

/**
 * The live preview of a template with the sample values: the whole email as the server renders it,
 * in a sandboxed frame at a desktop client's width (600 px or more) or a phone's (375 px), its
 * subject and its text part; or the problems that stop it.
 */
export function TemplatePreview({
  preview,
  valid,
  loading,
  error,
  width,
  onWidthChange,
}: TemplatePreviewProps) {
  const headingId = useId();
  const problems = preview?.problems ?? [];
  const rendered = preview?.rendered;
  return (
    <section aria-labelledby={headingId} className="email-preview" aria-busy={valid && loading}>
      <div className="email-preview-head">
        <H2 id={headingId}>Preview with sample values</H2>
        <SegmentedControl
          aria-label="Preview width"
          size="small"
          options={WIDTH_OPTIONS}
          value={width}
          onValueChange={(value) => {
            if (isPreviewWidth(value)) onWidthChange(value);
          }}
        />
      </div>
      {!valid ? (
        <p className={Classes.TEXT_MUTED}>Fill in the subject and the HTML body to see the preview.</p>
      ) : problems.length > 0 ? (
        <Callout intent={Intent.DANGER} title="This template cannot be saved" role="status">
          <ul className="email-problems">
            {problems.map((p) => (
              <li key={`${p.part}-${p.line}-${p.column}-${p.reason}`}>{p.message}</li>
            ))}
          </ul>
        </Callout>
      ) : error && !rendered ? (
        <Callout intent={Intent.WARNING} compact>
          The preview could not be made: {error}
        </Callout>
      ) : rendered ? (
        <>
          <p className="email-preview-subject">
            <span className={Classes.TEXT_MUTED}>Subject: </span>
            <strong>{rendered.subject}</strong>
          </p>
          <ScrollRegion
            className="email-preview-viewport"
            label={width === "phone" ? "The email at a phone's width" : "The email at a desktop's width"}
          >
            <div className={`email-preview-device email-preview-${width}`}>
              <EmailFrame title="HTML preview" html={rendered.html} fitContent />
            </div>
          </ScrollRegion>
          <H3 className="email-preview-text-heading">Text</H3>
          <pre className="email-text">{rendered.text}</pre>
        </>
      ) : (
        <Spinner size={20} aria-label="Rendering the preview" />
      )}
    </section>
  );
}
