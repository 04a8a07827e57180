import QRCode from "qrcode";

/**
 * QR codes of the user console (spec §2, Welcome tab): 128 px, a one-module margin, black on white.
 * Input is checked first, so an empty or oversized value gives a clear message instead of a broken
 * image.
 */
export const QR_DEFAULTS = {
  size: 128,
  margin: 1,
  dark: "#000000",
  light: "#ffffff",
} as const;

/**
 * The most bytes a QR code holds at error-correction level M (version 40, byte mode). Longer input
 * cannot be encoded at all.
 */
export const QR_MAX_BYTES = 2331;

export const QR_EMPTY_MESSAGE = "There is nothing to put in the QR code.";
export const QR_TOO_LARGE_MESSAGE = `This link is too long for a QR code (at most ${QR_MAX_BYTES} bytes).`;

/** Why a value cannot become a QR code; its message is fit to show to the user. */
export class QrInputError extends Error {
  override readonly name = "QrInputError";
}

/** Options of makeQrDataUrl; each defaults to QR_DEFAULTS. */
export interface QrOptions {
  size?: number;
  margin?: number;
  dark?: string;
  light?: string;
}

/** The message explaining why `text` cannot be encoded, or null when it can. */
export function qrInputProblem(text: string): string | null {
  if (text.trim() === "") return QR_EMPTY_MESSAGE;
  if (new TextEncoder().encode(text).length > QR_MAX_BYTES) return QR_TOO_LARGE_MESSAGE;
  return null;
}

/**
 * Renders `text` as a PNG data URL (level M error correction).
 * @throws QrInputError when `text` is empty or too large, or the encoder refuses it.
 */
export async function makeQrDataUrl(text: string, options: QrOptions = {}): Promise<string> {
  const problem = qrInputProblem(text);
  if (problem) throw new QrInputError(problem);
  const { size, margin, dark, light } = { ...QR_DEFAULTS, ...options };
  try {
    return await QRCode.toDataURL(text, {
      errorCorrectionLevel: "M",
      width: size,
      margin,
      color: { dark, light },
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new QrInputError(`This link cannot be shown as a QR code: ${reason}`);
  }
}

/** The Pro app's page of a user, `{proAppUrl}/user/{uniqueId}` (shared DECISIONS, The Pro app). */
export function proAppUserUrl(proAppUrl: string, uniqueId: string): string {
  return `${proAppUrl.replace(/\/+$/, "")}/user/${encodeURIComponent(uniqueId)}`;
}
