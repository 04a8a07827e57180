import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { requireCaller } from "@gateway/auth/actor";
import { handle } from "@gateway/http/handle";
import { parsePathId } from "@gateway/input";
import { DOCUMENT_NOT_FOUND, downloadDocument, previewDocument } from "@services/document";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { type Request, type Response, Router } from "express";

// Document files (issue 9): GET /documents/:id/download (an attachment, counted), GET
// /documents/:id/versions/:version/download (an older version's file) and GET /documents/:id/preview
// (PDF and images only, inline under a sandbox CSP). Owner (a client) or read:all_documents; anyone
// else is told the document does not exist. Local files stream through here; cloud downloads are a
// redirect to a presigned URL valid at most 60 s.

/** A path parameter as an id. @throws AppError NOT_FOUND otherwise: such a path names nothing. */
function idParam(req: Request, name: string, message: string): number {
  return parsePathId(req.params[name], message);
}

/** The Content-Type of a sniffed type (text is UTF-8: the sniffer admits nothing else). */
function contentType(mimeType: string): string {
  return mimeType.startsWith("text/") ? `${mimeType}; charset=utf-8` : mimeType;
}

/** Headers every file answer carries: never cached by shared caches, never sniffed by the browser. */
function fileHeaders(res: Response, props: { fileName: string; mimeType: string; inline: boolean }): void {
  // RFC 6266: filename (ASCII fallback) and filename* (UTF-8) from Express
  res.attachment(props.fileName);
  if (props.inline) {
    const disposition = String(res.get("Content-Disposition") ?? "");
    res.setHeader("Content-Disposition", disposition.replace(/^attachment/, "inline"));
  }
  res.setHeader("Content-Type", contentType(props.mimeType));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "private, no-store");
}

/** Streams `body` as the answer; a client that goes away mid-file only ends the stream. */
async function sendBody(res: Response, body: Readable, size: number): Promise<void> {
  res.setHeader("Content-Length", String(size));
  try {
    await pipeline(body, res);
  } catch (err) {
    body.destroy();
    if (!res.headersSent) throw err;
    logger("document.download").debug({ err }, "file stream ended early");
    res.destroy();
  }
}

/** A HEAD would count a download or open a file for nothing: files are fetched with GET only. */
function refuseHead(req: Request, res: Response): boolean {
  if (req.method !== "HEAD") return false;
  res.setHeader("Allow", "GET");
  res.status(405).end();
  return true;
}

/** REST routes of document files (mounted under /api, after the session is loaded). */
export function documentsRouter(deps: { db: Db }): Router {
  const router = Router();
  const { db } = deps;

  const download = (withVersion: boolean) =>
    handle(async (req, res) => {
      if (refuseHead(req, res)) return;
      res.locals.metricsRoute = withVersion
        ? "/api/documents/:id/versions/:version/download"
        : "/api/documents/:id/download";
      const actor = requireCaller(res);
      const documentId = idParam(req, "id", DOCUMENT_NOT_FOUND);
      const version = withVersion ? idParam(req, "version", "Version not found") : undefined;
      const file = await downloadDocument({ db, actor, documentId, version });
      if (file.target.kind === "redirect") {
        res.setHeader("Cache-Control", "private, no-store");
        res.redirect(302, file.target.url);
        return;
      }
      fileHeaders(res, { fileName: file.fileName, mimeType: file.mimeType, inline: false });
      await sendBody(res, file.target.body, file.target.size);
    });

  router.get("/documents/:id/download", download(false));
  router.get("/documents/:id/versions/:version/download", download(true));

  router.get(
    "/documents/:id/preview",
    handle(async (req, res) => {
      if (refuseHead(req, res)) return;
      res.locals.metricsRoute = "/api/documents/:id/preview";
      const actor = requireCaller(res);
      const file = await previewDocument({ db, actor, documentId: idParam(req, "id", DOCUMENT_NOT_FOUND) });
      fileHeaders(res, { fileName: file.fileName, mimeType: file.mimeType, inline: true });
      // the file is shown in a sandbox: no script, no form, no same-origin rights
      res.setHeader("Content-Security-Policy", "sandbox");
      await sendBody(res, file.body, file.size);
    }),
  );

  return router;
}
