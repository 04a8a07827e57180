import {
  GlobalWorkerOptions,
  getDocument,
  type PDFDocumentProxy,
  RenderingCancelledException,
  VerbosityLevel,
  version,
} from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";

// PDF pages drawn in the page with pdf.js (issue 9): a browser's own PDF viewer refuses a document
// served under `Content-Security-Policy: sandbox`, which the preview endpoint must send. This module
// is loaded only when a PDF is previewed (a dynamic import), so pdf.js stays out of the other pages.
// Everything comes from our origin under the app's CSP: the worker is a built asset, pdf.js's data
// files are served by the build (web/vite.config.ts, pdfjsData), no string is evaluated as code
// (pdf.js 6 has no eval path left) and no WebAssembly is compiled (useWasm: false: pdf.js uses its
// JavaScript decoders).

GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build serves pdf.js's data files (web/vite.config.ts, PDFJS_DATA_PATH). */
const dataUrl = (folder: string) =>
  new URL(`${import.meta.env.BASE_URL}assets/pdfjs-${version}/${folder}/`, window.location.origin).href;

/** An open PDF: its page count, each page drawn on a canvas or read as text, and closing it. */
export interface PdfFile {
  numPages: number;
  /**
   * Draws page `pageNumber` (1-based) on `canvas`, as wide as `width` CSS pixels and at most
   * `maxHeight` tall, sharp on high-density screens. Resolves false when cancelled.
   * @throws Error when the page cannot be drawn.
   */
  render(
    pageNumber: number,
    canvas: HTMLCanvasElement,
    box: { width: number; maxHeight?: number },
  ): { done: Promise<boolean>; cancel(): void };
  /** The text of page `pageNumber`, lines joined by line breaks ("" for a scan). */
  text(pageNumber: number): Promise<string>;
  /** Ends the worker's work for this file. */
  close(): Promise<void>;
}

/**
 * Opens the PDF `data` (its bytes, which pdf.js takes over).
 * @throws Error (pdf.js's InvalidPDFException, PasswordException...) when it cannot be opened.
 */
export async function openPdf(data: Uint8Array): Promise<PdfFile> {
  const task = getDocument({
    data,
    useWasm: false,
    enableXfa: false,
    useWorkerFetch: true,
    cMapUrl: dataUrl("cmaps"),
    cMapPacked: true,
    standardFontDataUrl: dataUrl("standard_fonts"),
    wasmUrl: dataUrl("wasm"),
    verbosity: VerbosityLevel.ERRORS,
  });
  const pdf = await task.promise;
  return {
    numPages: pdf.numPages,
    render: (pageNumber, canvas, box) => renderPage(pdf, pageNumber, canvas, box),
    text: (pageNumber) => pageText(pdf, pageNumber),
    close: () => task.destroy(),
  };
}

function renderPage(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  canvas: HTMLCanvasElement,
  box: { width: number; maxHeight?: number },
): { done: Promise<boolean>; cancel(): void } {
  let cancelled = false;
  let cancelTask = () => {};
  const done = (async () => {
    const page = await pdf.getPage(pageNumber);
    if (cancelled) return false;
    const natural = page.getViewport({ scale: 1 });
    const fit = Math.min(
      box.width / natural.width,
      box.maxHeight ? box.maxHeight / natural.height : Number.POSITIVE_INFINITY,
    );
    const scale = Math.max(fit, 0.1);
    const ratio = window.devicePixelRatio || 1;
    const viewport = page.getViewport({ scale: scale * ratio });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
    canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
    const task = page.render({ canvas, viewport });
    cancelTask = () => task.cancel();
    try {
      await task.promise;
      return true;
    } catch (err) {
      if (err instanceof RenderingCancelledException) return false;
      throw err;
    }
  })();
  return {
    done,
    cancel() {
      cancelled = true;
      cancelTask();
    },
  };
}

async function pageText(pdf: PDFDocumentProxy, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  let text = "";
  for (const item of content.items) {
    if (!("str" in item)) continue;
    text += item.str + (item.hasEOL ? "\n" : "");
  }
  return text.replace(/[ \t]+\n/g, "\n").trim();
}
