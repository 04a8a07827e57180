import type { Config } from "@services/shared/config";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type DocumentNode, Kind, parse } from "graphql";
import { isCrossSite, refuseCrossSite } from "../http/csrf";
import { GRAPHQL_MAX_TOKENS } from "./server";

/** The query document of a GraphQL POST body, or null when there is none or it does not parse. */
function documentOf(body: unknown): DocumentNode | null {
  const query = typeof body === "object" && body !== null && "query" in body ? body.query : undefined;
  if (typeof query !== "string") return null;
  try {
    return parse(query, { maxTokens: GRAPHQL_MAX_TOKENS });
  } catch {
    return null;
  }
}

/** Whether a document defines a mutation (whichever operation the request names). */
function holdsMutation(document: DocumentNode): boolean {
  return document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === "mutation");
}

/**
 * The REST shims' same-origin rule (../http/csrf.ts) for GraphQL mutations: a POST that another site
 * sent gets 403 'Cross-site request refused' unless its document parses and holds no mutation, so a
 * cross-site query still answers and nothing a cross-site page sends can change anything. Same-origin
 * requests pass without being parsed here. Apollo's CSRF prevention still refuses simple requests.
 */
export function graphqlOriginGuard(cfg: Config): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "POST" || !isCrossSite(cfg, req)) return next();
    const document = documentOf(req.body);
    if (document === null || holdsMutation(document)) {
      refuseCrossSite(res);
      return;
    }
    next();
  };
}
