import { builder, type Types } from "@gateway/graphql/builder";
import { caller, originOf } from "@gateway/graphql/context";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { parseId } from "@gateway/input";
import { DOCUMENT_SORTS, DOCUMENT_STATUSES } from "@schema/validation/document";
import type {
  DocumentHistoryView,
  DocumentOwnerView,
  DocumentVersionView,
  DocumentView,
} from "@services/document";
import {
  approveDocument,
  approveDocuments,
  type BulkApproveView,
  type DocumentClientView,
  type DocumentConnectionView,
  type DocumentStatusCountsView,
  deleteDocument,
  documentClients,
  getDocument,
  listDocuments,
  rejectDocument,
} from "@services/document";
import { AppError } from "@services/shared/errors";
import type { DocumentAction } from "@services/shared/generated/prisma/enums";

// Documents (issue 9; the contract /work/contract/documents.graphql): the owner's list, the team's
// list, one document, the report form's client picker, and the review and delete mutations. The
// resolvers only build the actor and pass the arguments on: the use cases validate (the shared zod
// schemas) and check every permission again, as they do for the REST and tus surfaces.

const DOCUMENT_ACTIONS = [
  "uploaded",
  "resubmitted",
  "approved",
  "rejected",
  "report",
] as const satisfies readonly DocumentAction[];

export const DocumentStatusEnum = builder.enumType("DocumentStatus", { values: DOCUMENT_STATUSES });
export const DocumentSortEnum = builder.enumType("DocumentSort", { values: DOCUMENT_SORTS });
export const DocumentActionEnum = builder.enumType("DocumentAction", { values: DOCUMENT_ACTIONS });

/** A client as documents show them: the owner, or a report's recipient. */
function clientFields<S extends DocumentClientView>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, S>) {
  return {
    id: t.int({ resolve: (c) => c.id }),
    username: t.string({ resolve: (c) => c.username }),
    firstName: t.string({ resolve: (c) => c.firstName }),
    lastName: t.string({ resolve: (c) => c.lastName }),
    email: t.string({ resolve: (c) => c.email }),
    companyName: t.string({ nullable: true, resolve: (c) => c.companyName }),
  };
}

const DocumentOwnerRef = builder.objectRef<DocumentOwnerView>("DocumentOwner").implement({
  description: "The client a document belongs to.",
  fields: clientFields,
});

const DocumentHistoryEntryRef = builder.objectRef<DocumentHistoryView>("DocumentHistoryEntry").implement({
  description: "An upload, resubmission or decision of a document, with who and why.",
  fields: (t) => ({
    version: t.exposeInt("version"),
    action: t.field({ type: DocumentActionEnum, resolve: (h) => h.action }),
    actorName: t.exposeString("actorName"),
    reason: t.exposeString("reason", { nullable: true, description: "the rejection reason" }),
    createdAt: t.field({ type: "DateTime", resolve: (h) => h.createdAt }),
  }),
});

const DocumentVersionRef = builder.objectRef<DocumentVersionView>("DocumentVersion").implement({
  description: "A file a document has had: version 1 at upload, one more per resubmission.",
  fields: (t) => ({
    version: t.exposeInt("version"),
    fileName: t.exposeString("fileName"),
    fileType: t.exposeString("fileType"),
    fileSize: t.field({ type: "SafeInt", resolve: (v) => v.fileSize }),
    createdAt: t.field({ type: "DateTime", resolve: (v) => v.createdAt }),
    downloadUrl: t.exposeString("downloadUrl", {
      description: "/api/documents/{id}/versions/{version}/download",
    }),
  }),
});

/** A document with its owner, history and versions. */
export const DocumentRef = builder.objectRef<DocumentView>("Document").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    userId: t.exposeInt("userId"),
    owner: t.field({ type: DocumentOwnerRef, resolve: (d) => d.owner }),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    fileName: t.exposeString("fileName"),
    fileType: t.exposeString("fileType", { description: 'the extension, lower case ("pdf")' }),
    fileSize: t.field({ type: "SafeInt", nullable: true, resolve: (d) => d.fileSize }),
    mimeType: t.exposeString("mimeType", { nullable: true, description: "sniffed from the bytes" }),
    fileUrl: t.exposeString("fileUrl", { description: "/api/documents/{id}/download" }),
    previewUrl: t.exposeString("previewUrl", {
      nullable: true,
      description: "/api/documents/{id}/preview when the sniffed type is PDF or an image, else null",
    }),
    status: t.field({ type: DocumentStatusEnum, resolve: (d) => d.status }),
    version: t.exposeInt("version"),
    fromTeam: t.exposeBoolean("fromTeam", { description: "a report the team sent the client" }),
    uploadedByName: t.exposeString("uploadedByName", { nullable: true }),
    approvedBy: t.exposeString("approvedBy", { nullable: true }),
    approvedAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.approvedAt }),
    rejectedBy: t.exposeString("rejectedBy", { nullable: true }),
    rejectedAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.rejectedAt }),
    rejectionReason: t.exposeString("rejectionReason", { nullable: true }),
    downloadCount: t.exposeInt("downloadCount"),
    createdAt: t.field({ type: "DateTime", resolve: (d) => d.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (d) => d.updatedAt }),
    history: t.field({
      type: [DocumentHistoryEntryRef],
      description: "oldest first",
      resolve: (d) => d.history,
    }),
    versions: t.field({
      type: [DocumentVersionRef],
      description: "oldest first",
      resolve: (d) => d.versions,
    }),
  }),
});

const DocumentStatusCountsRef = builder
  .objectRef<DocumentStatusCountsView>("DocumentStatusCounts")
  .implement({
    fields: (t) => ({
      pending: t.exposeInt("pending"),
      approved: t.exposeInt("approved"),
      rejected: t.exposeInt("rejected"),
      total: t.exposeInt("total"),
    }),
  });

const DocumentConnectionRef = keysetPage<DocumentView, DocumentConnectionView>("DocumentConnection", {
  node: DocumentRef,
  description: "One page of documents (keyset pages: pass endCursor as `after` for the next).",
  totalCount: "matching the filter",
  fields: (t) => ({
    counts: t.field({
      type: DocumentStatusCountsRef,
      description: "per status, for the filter without its status",
      resolve: (c) => c.counts,
    }),
  }),
});

const DocumentClientRef = builder.objectRef<DocumentClientView>("DocumentClient").implement({
  description: "A client a report may be sent to.",
  fields: clientFields,
});

const BulkApproveFailureRef = builder
  .objectRef<BulkApproveView["failed"][number]>("BulkApproveFailure")
  .implement({
    fields: (t) => ({ id: t.exposeInt("id"), message: t.exposeString("message") }),
  });

const BulkApproveResultRef = builder.objectRef<BulkApproveView>("BulkApproveResult").implement({
  fields: (t) => ({
    approved: t.field({ type: [DocumentRef], resolve: (r) => r.approved }),
    failed: t.field({ type: [BulkApproveFailureRef], resolve: (r) => r.failed }),
  }),
});

const DocumentFilterInput = builder.inputType("DocumentFilterInput", {
  fields: (t) => ({
    status: t.field({ type: DocumentStatusEnum }),
    userId: t.int({ description: "admins only (refused for myDocuments)" }),
    fileType: t.string(),
    from: t.field({ type: "DateTime", description: "created at or after" }),
    to: t.field({ type: "DateTime", description: "created before" }),
    search: t.string({ description: "title and file name, case-insensitive, parts of words" }),
    fromTeam: t.boolean(),
    sort: t.field({ type: DocumentSortEnum, description: "default createdAt_desc" }),
    first: t.int({ description: "1..100, default 25" }),
    after: t.string({ description: "endCursor of the previous page" }),
  }),
});

/** The filter as the shared schema reads it: absent fields left out, instants as ISO strings. */
function filterInput(filter: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter ?? {})
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );
}

const DOCUMENT_LISTS = {
  myDocuments: {
    scope: "mine",
    description: "The signed-in client's own documents, reports from the team included (client-only).",
    authScopes: { client: true },
  },
  documents: {
    scope: "all",
    description: "Every client's documents, filtered, sorted and paged (read:all_documents).",
    authScopes: { readAllDocuments: true },
  },
} as const;

for (const [name, list] of Object.entries(DOCUMENT_LISTS)) {
  builder.queryField(name, (t) =>
    t.field({
      type: DocumentConnectionRef,
      description: list.description,
      authScopes: list.authScopes,
      args: { filter: t.arg({ type: DocumentFilterInput }) },
      resolve: (_root, args, ctx) =>
        runIdentity(() =>
          listDocuments({
            db: ctx.db,
            actor: caller(ctx),
            scope: list.scope,
            filter: filterInput(args.filter),
          }),
        ),
    }),
  );
}

builder.queryField("document", (t) =>
  t.field({
    type: DocumentRef,
    nullable: true,
    description: "One document for its owner or read:all_documents; null when not found or not visible.",
    authScopes: { client: true, readAllDocuments: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => getDocument({ db: ctx.db, actor: caller(ctx), documentId: parseId(args.id) })),
  }),
);

builder.queryField("documentClients", (t) =>
  t.field({
    type: [DocumentClientRef],
    description:
      "Clients a report may be sent to, searched by name, email, company or username (approve:documents).",
    authScopes: { approveDocuments: true },
    args: { search: t.arg.string(), first: t.arg.int() },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        documentClients({ db: ctx.db, actor: caller(ctx), search: args.search, first: args.first }),
      ),
  }),
);

builder.mutationField("approveDocument", (t) =>
  t.field({
    type: DocumentRef,
    description: "Approves a pending document (approve:documents); CONFLICT when it is already decided.",
    authScopes: { approveDocuments: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        approveDocument({ db: ctx.db, actor: caller(ctx), documentId: parseId(args.id), ...originOf(ctx) }),
      ),
  }),
);

builder.mutationField("rejectDocument", (t) =>
  t.field({
    type: DocumentRef,
    description: "Rejects a pending document with a reason the client will read (approve:documents).",
    authScopes: { approveDocuments: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        rejectDocument({
          db: ctx.db,
          actor: caller(ctx),
          documentId: parseId(args.id),
          reason: args.reason,
          ...originOf(ctx),
        }),
      ),
  }),
);

builder.mutationField("approveDocuments", (t) =>
  t.field({
    type: BulkApproveResultRef,
    description:
      "Approves several pending documents, each on its own; failures are listed with their messages.",
    authScopes: { approveDocuments: true },
    errors: { types: [AppError] },
    args: { ids: t.arg.intList({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        approveDocuments({ db: ctx.db, actor: caller(ctx), ids: args.ids, ...originOf(ctx) }),
      ),
  }),
);

builder.mutationField("deleteDocument", (t) =>
  t.field({
    type: "Boolean",
    description: "The owner deletes their own pending or rejected document (client-only).",
    authScopes: { client: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        await deleteDocument({
          db: ctx.db,
          actor: caller(ctx),
          documentId: parseId(args.id),
          ...originOf(ctx),
        });
        return true;
      }),
  }),
);
