import { Callout, Classes, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { makeQrDataUrl, QR_DEFAULTS, QrInputError } from "@web/lib/qr";
import { useEffect, useState } from "react";

/** Props of a QR code that links to `value`. */
export interface QrCodeProps {
  value: string;
  /** what the code is for, read by screen readers */
  label: string;
  size?: number;
}

type QrState =
  | { status: "drawing" }
  | { status: "ready"; dataUrl: string }
  | { status: "refused"; message: string };

/**
 * A QR code of `value` (128 px, margin 1, black on white), itself a link to the same address. An
 * empty or oversized value shows why instead of a broken image.
 */
export function QrCode({ value, label, size = QR_DEFAULTS.size }: QrCodeProps) {
  const [state, setState] = useState<QrState>({ status: "drawing" });

  useEffect(() => {
    let current = true;
    setState({ status: "drawing" });
    makeQrDataUrl(value, { size }).then(
      (dataUrl) => {
        if (current) setState({ status: "ready", dataUrl });
      },
      (error: unknown) => {
        const message = error instanceof QrInputError ? error.message : "The QR code could not be drawn.";
        if (current) setState({ status: "refused", message });
      },
    );
    return () => {
      current = false;
    };
  }, [value, size]);

  if (state.status === "refused") {
    return (
      <Callout intent={Intent.WARNING} title="No QR code" className="console-qr-refused">
        {state.message}
      </Callout>
    );
  }
  return (
    <div className="console-qr" style={{ width: size, height: size }}>
      {state.status === "ready" ? (
        <a href={value} target="_blank" rel="noopener noreferrer" className="console-qr-link">
          <img src={state.dataUrl} alt={label} width={size} height={size} />
        </a>
      ) : (
        <Spinner size={SpinnerSize.SMALL} aria-label="Drawing the QR code" />
      )}
    </div>
  );
}

/** Props of {@link ProAppQr}. */
export interface ProAppQrProps {
  link: string;
}

/** The QR code of the user's ESRT Pro page, to open it on a phone. */
export function ProAppQr({ link }: ProAppQrProps) {
  return (
    <figure className="console-qr-figure">
      <QrCode value={link} label={`QR code linking to ${link}`} />
      <figcaption className={Classes.TEXT_MUTED}>Scan to open ESRT Pro on your phone</figcaption>
    </figure>
  );
}
