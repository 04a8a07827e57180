/**
 * The document service: resumable uploads and their checks, review, download and preview, storage
 * settings and the storage adapters.
 *
 * This is the service's public face: other rooms (the gateway, other services, scripts, tests)
 * import from `@services/document` only, never a file inside it.
 */
export type { DocumentActor } from "./actor";
export { createUpload } from "./createUpload";
export { deleteDocument } from "./deleteDocument";
export { createDemoDocuments, removeDemoDocuments } from "./demoDocuments";
export { discardUpload } from "./discardUpload";
export type { DocumentClientView } from "./documentClients";
export { documentClients } from "./documentClients";
export { DOCUMENT_NOT_FOUND, downloadDocument } from "./downloadDocument";
export { findOwnUpload } from "./findOwnUpload";
export { finishUpload } from "./finishUpload";
export { getDocument } from "./getDocument";
export { InspectingFileStore } from "./inspectingStore";
export type { DocumentConnectionView, DocumentStatusCountsView } from "./listDocuments";
export { listDocuments } from "./listDocuments";
export { countPendingDocuments } from "./pendingDocuments";
export type { DocumentHistoryView, DocumentOwnerView, DocumentVersionView, DocumentView } from "./present";
export { previewDocument } from "./previewDocument";
export type { BulkApproveView } from "./reviewDocument";
export { approveDocument, approveDocuments, rejectDocument } from "./reviewDocument";
export { seedDocumentDefaults } from "./seedDocumentDefaults";
export { STAGING_FOLDER, stagedFilePath, UPLOAD_ID_PATTERN, UPLOAD_TTL_MS } from "./staging";
export { localDocumentStorage, newStorageKey } from "./storage";
export type { CloudSettings } from "./storage/s3";
export type { StorageSettingsView, StorageTestResult, StorageUsage, UploadPolicy } from "./storageSettings";
export {
  getStorageSettings,
  storageUsage,
  testStorageConnection,
  updateStorageSettings,
  uploadPolicy,
} from "./storageSettings";
export { UploadStaging } from "./uploadStaging";
// The worker entry: the service's event consumers and background work (services/registry.ts).
export { consumers, startWorkers } from "./worker";
