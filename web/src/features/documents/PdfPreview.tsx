import { AnchorButton, Button, ButtonGroup, Callout, Classes, Intent, Spinner } from "@blueprintjs/core";
import { ChevronLeft, ChevronRight, Download } from "@blueprintjs/icons";
import type { PdfFile } from "@web/lib/pdf";
import { useEffect, useRef, useState } from "react";
import { pdfOpenError } from "./documents";
import { fetchPdf } from "./pdfBytes";

/** Props of {@link PdfPreview}. */
export interface PdfPreviewProps {
  /** the document's preview path (/api/documents/{id}/preview) */
  url: string;
  /** the document's title, naming each drawn page */
  title: string;
  /** the download path, offered when the file cannot be shown */
  fileUrl: string;
  /** the tallest a page may be drawn, in CSS pixels (a dialog keeps it on screen) */
  maxHeight?: number;
}

type Loaded = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "ready"; pdf: PdfFile };

/** The width of `ref`'s element in CSS pixels, following its size (0 until it is laid out). */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * A PDF document drawn in the page, one page at a time, with pdf.js (loaded on first use): the
 * page as an image named "Page n of m of {title}", Previous and Next buttons, "Page n of m" (read
 * out as it changes), and the page's text for who cannot see the drawing. A file that cannot be
 * fetched or read shows why, with its download.
 */
export function PdfPreview({ url, title, fileUrl, maxHeight }: PdfPreviewProps) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: "loading" });
  const [pageNumber, setPageNumber] = useState(1);

  useEffect(() => {
    let current = true;
    let opened: PdfFile | null = null;
    const controller = new AbortController();
    setLoaded({ kind: "loading" });
    setPageNumber(1);
    (async () => {
      const [bytes, pdfjs] = await Promise.all([fetchPdf(url, controller.signal), import("@web/lib/pdf")]);
      const pdf = await pdfjs.openPdf(bytes);
      if (!current) return void pdf.close();
      opened = pdf;
      setLoaded({ kind: "ready", pdf });
    })().catch((err: unknown) => {
      if (!current) return;
      setLoaded({ kind: "failed", message: pdfOpenError(err) });
    });
    return () => {
      current = false;
      controller.abort();
      void opened?.close();
    };
  }, [url]);

  if (loaded.kind === "loading") {
    return (
      <div className="documents-pdf-status" role="status">
        <span aria-hidden="true">
          <Spinner size={20} />
        </span>
        <span>Loading the preview…</span>
      </div>
    );
  }
  if (loaded.kind === "failed") {
    return (
      <Callout intent={Intent.WARNING} compact title="The preview cannot be shown">
        <p>{loaded.message}</p>
        <AnchorButton href={fileUrl} download icon={<Download />} text="Download" />
      </Callout>
    );
  }
  return (
    <PdfPages
      pdf={loaded.pdf}
      title={title}
      pageNumber={pageNumber}
      onPage={setPageNumber}
      maxHeight={maxHeight}
    />
  );
}

interface PdfPagesProps {
  pdf: PdfFile;
  title: string;
  pageNumber: number;
  onPage(page: number): void;
  maxHeight?: number;
}

/** The open PDF's current page, its navigation and its text. */
function PdfPages({ pdf, title, pageNumber, onPage, maxHeight }: PdfPagesProps) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const width = useWidth(frame);
  const [failure, setFailure] = useState<string | null>(null);
  const [text, setText] = useState<string | null>(null);
  const { numPages } = pdf;
  const label = `Page ${pageNumber} of ${numPages}`;

  useEffect(() => {
    const target = canvas.current;
    if (!target || width === 0) return;
    setFailure(null);
    const drawing = pdf.render(pageNumber, target, { width, maxHeight });
    drawing.done.catch((err: unknown) =>
      setFailure(err instanceof Error ? err.message : "The page could not be drawn"),
    );
    return () => drawing.cancel();
  }, [pdf, pageNumber, width, maxHeight]);

  useEffect(() => {
    let current = true;
    setText(null);
    pdf.text(pageNumber).then(
      (found) => current && setText(found),
      () => current && setText(""),
    );
    return () => {
      current = false;
    };
  }, [pdf, pageNumber]);

  // Focus stays on the navigation: the button pressed becomes disabled on the first or last page
  // (and loses focus), so the other one takes it once the page has turned.
  const [refocus, setRefocus] = useState<"previous" | "next" | null>(null);
  useEffect(() => {
    if (!refocus) return;
    (refocus === "previous" ? previous : next).current?.focus();
    setRefocus(null);
  }, [refocus]);

  /** Turns to `page`. */
  const turn = (page: number) => {
    setRefocus(page === numPages ? "previous" : page === 1 ? "next" : null);
    onPage(page);
  };

  return (
    <div className="documents-pdf">
      <div className="documents-pdf-nav">
        {numPages > 1 && (
          <ButtonGroup>
            <Button
              ref={previous}
              icon={<ChevronLeft />}
              text="Previous page"
              disabled={pageNumber <= 1}
              onClick={() => turn(pageNumber - 1)}
            />
            <Button
              ref={next}
              endIcon={<ChevronRight />}
              text="Next page"
              disabled={pageNumber >= numPages}
              onClick={() => turn(pageNumber + 1)}
            />
          </ButtonGroup>
        )}
        <span className="documents-pdf-page" aria-live="polite">
          {label}
        </span>
      </div>
      <div className="documents-pdf-frame" ref={frame}>
        <canvas ref={canvas} role="img" aria-label={`${label} of ${title}`} />
      </div>
      {failure && (
        <Callout intent={Intent.WARNING} compact>
          This page could not be drawn: {failure}
        </Callout>
      )}
      <details className="documents-pdf-text">
        <summary>Text of page {pageNumber}</summary>
        {text === null ? (
          <p className={Classes.TEXT_MUTED}>Reading the page…</p>
        ) : text === "" ? (
          <p className={Classes.TEXT_MUTED}>This page has no text to read out (it may be a scanned image).</p>
        ) : (
          <p className="documents-pdf-text-body">{text}</p>
        )}
      </details>
    </div>
  );
}
