import { pdfPreviewError } from "./documents";

// A download, a protocol of its own beside the data layer (DECISIONS, one data layer): the preview's
// bytes are read once for pdf.js and never cached.

/** The PDF's bytes, with the session cookie. @throws Error whose message says why it failed. */
export async function fetchPdf(url: string, signal: AbortSignal): Promise<Uint8Array> {
  const answer = await fetch(url, { credentials: "same-origin", signal });
  if (!answer.ok) throw new Error(pdfPreviewError(answer.status));
  return new Uint8Array(await answer.arrayBuffer());
}
