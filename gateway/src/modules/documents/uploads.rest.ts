import { randomBytes } from "node:crypto";
import path from "node:path";
import { requireCaller } from "@gateway/auth/actor";
import { toHttpError } from "@gateway/errors";
import { CROSS_SITE_MESSAGE, isCrossSite } from "@gateway/http/csrf";
import type { DocumentActor } from "@services/document";
import {
  createUpload,
  discardUpload,
  findOwnUpload,
  finishUpload,
  InspectingFileStore,
  STAGING_FOLDER,
  stagedFilePath,
  UPLOAD_ID_PATTERN,
  UPLOAD_TTL_MS,
  UploadStaging,
  uploadPolicy,
} from "@services/document";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { logger } from "@services/shared/logger";
import { Server } from "@tus/server";
import type { NextFunction, Request, Response } from "express";

// tus 1.0 resumable uploads at /api/uploads (issue 9): POST creates an upload once its declared
// length, type and metadata pass (createUpload); HEAD, PATCH and DELETE reach only the creator's own
// upload; the PATCH that completes it turns it into a document (finishUpload) and answers
// {"document": {...}}. The bytes are staged where the upload's row says: in the cloud store when
// cloud storage is configured (any gateway continues the upload), else in DATA_DIR/uploads, a
// private staging area. Every refusal is text/plain (what tus clients show), never a stack.

export const UPLOADS_PATH = "/api/uploads";
export const CLIENT_ONLY_MESSAGE =
  "Access Restricted: this feature is only available to clients. Please contact your administrator for assistance.";
const UPLOAD_NOT_FOUND = "Upload not found";
const UPLOAD_EXPIRED = "This upload has expired: please start it again";

/** What the guard learned about a request, for the tus hooks (keyed by Node's request object). */
interface UploadRequestState {
  actor: DocumentActor;
  uploadId: string;
}

/** An error tus turns into its answer: a status and a text body. */
interface TusRefusal {
  status_code: number;
  body: string;
}

const TUS_RESUMABLE = "1.0.0";

/**
 * The tus endpoint: an Express handler to mount at /api/uploads after the session is loaded and
 * before any body parser (tus streams the request body itself). `directory` defaults to
 * DATA_DIR/uploads.
 */
export function uploadsHandler(deps: { db: Db; config: Config; directory?: string }) {
  const { db } = deps;
  const directory = deps.directory ?? path.join(deps.config.DATA_DIR, STAGING_FOLDER);
  const log = logger("document.upload");
  const state = new WeakMap<object, UploadRequestState>();
  const stateOf = (req: { runtime?: { node?: { req?: object } } }): UploadRequestState | undefined => {
    const node = req.runtime?.node?.req;
    return node ? state.get(node) : undefined;
  };

  const datastore = new UploadStaging({
    db,
    local: new InspectingFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_TTL_MS }),
    // a terminated upload's row goes with its bytes, before the 204
    onRemove: async (id) => {
      await discardUpload({ db, uploadId: id, stagedPath: stagedFilePath(directory, id) });
    },
  });
  const tus = new Server({
    path: UPLOADS_PATH,
    relativeLocation: true,
    datastore,
    // same-origin only: no CORS headers for any other origin
    allowedOrigins: () => false,
    // the id the guard made (and recorded) for this creation
    namingFunction: (req) => {
      const id = stateOf(req)?.uploadId;
      if (!id) throw refusal(500, "Internal server error");
      return id;
    },
    maxSize: async () => (await uploadPolicy(db)).maxFileSize,
    onUploadFinish: async (req, upload) => {
      try {
        const document = await finishUpload({
          db,
          uploadId: upload.id,
          stagedPath: stagedFilePath(directory, upload.id),
          inspection:
            upload.size === undefined ? undefined : datastore.local.takeInspection(upload.id, upload.size),
        });
        return {
          status_code: 200,
          headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
          body: JSON.stringify({ document }),
        };
      } catch (err) {
        throw toRefusal(err, stateOf(req));
      }
    },
    onResponseError: async (req, err) => {
      const status = "status_code" in err && typeof err.status_code === "number" ? err.status_code : 500;
      const uploadId = stateOf(req)?.uploadId;
      // a client sending more than it declared is cut off and its upload dropped
      if (status === 413 && req.method === "PATCH" && uploadId) {
        await discardUpload({ db, uploadId, stagedPath: stagedFilePath(directory, uploadId) }).catch(
          (discardErr: unknown) =>
            log.warn({ err: discardErr, uploadId }, "could not drop an oversized upload"),
        );
      }
      if (status >= 500) {
        log.error({ err, uploadId }, "upload request failed");
        return { status_code: 500, body: "Internal server error" };
      }
      return undefined;
    },
  });

  /** Who may do what, checked before tus sees the request. @throws AppError for every refusal. */
  const guard = async (req: Request, res: Response): Promise<UploadRequestState> => {
    if (req.method === "GET") throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
    if (req.method !== "HEAD" && req.method !== "OPTIONS" && isCrossSite(deps.config, req)) {
      throw new AppError("FORBIDDEN", CROSS_SITE_MESSAGE);
    }
    const actor = requireCaller(res);
    if (!actor.isClient) throw new AppError("FORBIDDEN", CLIENT_ONLY_MESSAGE);
    if (req.method === "OPTIONS") return { actor, uploadId: "" };
    if (!req.get("tus-resumable")) throw refusal(412, "Tus-Resumable Required");
    const idInPath = req.path.replace(/^\/+|\/+$/g, "");
    if (req.method === "POST") {
      if (idInPath !== "") throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
      const uploadId = randomBytes(16).toString("hex");
      await createUpload({
        db,
        actor,
        uploadId,
        uploadLength:
          req.get("upload-defer-length") === undefined ? (req.get("upload-length") ?? null) : null,
        metadata: decodeUploadMetadata(req.get("upload-metadata")),
      });
      return { actor, uploadId };
    }
    if (!UPLOAD_ID_PATTERN.test(idInPath)) throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
    const found = await findOwnUpload({ db, userId: actor.id, uploadId: idInPath });
    if (found === "missing") throw new AppError("NOT_FOUND", UPLOAD_NOT_FOUND);
    if (found === "expired") {
      await discardUpload({ db, uploadId: idInPath, stagedPath: stagedFilePath(directory, idInPath) });
      throw refusal(410, UPLOAD_EXPIRED);
    }
    return { actor, uploadId: idInPath };
  };

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals.metricsRoute = req.path === "/" ? UPLOADS_PATH : `${UPLOADS_PATH}/:id`;
    try {
      state.set(req, await guard(req, res));
    } catch (err) {
      sendRefusal(req, res, toRefusal(err, undefined));
      return;
    }
    // tus reads the full path (Express strips the mount point from req.url)
    req.url = req.originalUrl;
    try {
      await tus.handle(req, res);
    } catch (err) {
      next(err);
    }
  };

  /** Maps anything thrown to a tus refusal through the one error mapper (logged when unexpected). */
  function toRefusal(err: unknown, requestState: UploadRequestState | undefined): TusRefusal {
    if (isRefusal(err)) return err;
    const { status, body } = toHttpError(err);
    if (status >= 500) log.error({ err, uploadId: requestState?.uploadId }, "upload failed");
    return refusal(status, body.message);
  }
}

function refusal(status: number, message: string): TusRefusal {
  return { status_code: status, body: message };
}

function isRefusal(err: unknown): err is TusRefusal {
  return (
    typeof err === "object" &&
    err !== null &&
    "status_code" in err &&
    typeof err.status_code === "number" &&
    "body" in err &&
    typeof err.body === "string" &&
    !(err instanceof Error)
  );
}

/**
 * Answers a refusal the way tus does: its status, Tus-Resumable, a text/plain message. A request
 * that may still be sending a body has its connection closed, so no byte of it is read.
 */
function sendRefusal(req: Request, res: Response, err: TusRefusal): void {
  res.status(err.status_code);
  res.setHeader("Tus-Resumable", TUS_RESUMABLE);
  res.setHeader("Cache-Control", "no-store");
  if (err.status_code === 401) res.setHeader("WWW-Authenticate", 'Session realm="portal"');
  if (req.method === "POST" || req.method === "PATCH") res.setHeader("Connection", "close");
  res.type("text/plain; charset=utf-8").send(err.body);
}

/**
 * Decodes a tus Upload-Metadata header: comma-separated `key base64value` pairs (a key alone means
 * an empty value). @throws AppError BAD_REQUEST when it is malformed or a value is not UTF-8.
 */
export function decodeUploadMetadata(header: string | undefined): Record<string, string | null> {
  const metadata: Record<string, string | null> = {};
  if (header === undefined || header.trim() === "") return metadata;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const pair of header.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || rest.length > 0 || !/^[A-Za-z0-9_.-]{1,64}$/.test(key) || Object.hasOwn(metadata, key)) {
      throw new AppError("BAD_REQUEST", "Malformed Upload-Metadata");
    }
    if (value === undefined || value === "") {
      metadata[key] = null;
      continue;
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
      throw new AppError("BAD_REQUEST", "Malformed Upload-Metadata");
    }
    try {
      metadata[key] = decoder.decode(Buffer.from(value, "base64"));
    } catch {
      throw new AppError("BAD_REQUEST", "Upload-Metadata values must be UTF-8 text");
    }
  }
  return metadata;
}
