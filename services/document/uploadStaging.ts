import type { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import type { StorageType } from "@services/shared/generated/prisma/client";
import { DataStore, type Upload } from "@tus/utils";
import { PortStagingStore } from "./cloudStaging";
import type { InspectingFileStore } from "./inspectingStore";
import { cloudSettingsOf, loadStorageConfig, storageForBackend } from "./storage";

// Where the bytes of an upload in progress wait (issue 22). Each upload is staged where its
// `uploads` row says, chosen at creation: in the cloud store when cloud storage is configured (so
// any gateway continues it), else in this gateway's DATA_DIR/uploads (several gateways then need a
// shared volume there, as the README says).

/**
 * Where a new upload is staged: the cloud store while storage_config names cloud storage with
 * complete settings, else the local staging area.
 */
export async function stagingForNewUpload(db: Db): Promise<StorageType> {
  const row = await loadStorageConfig(db);
  if (row?.storageType !== "cloud") return "local";
  try {
    return cloudSettingsOf(row) ? "cloud" : "local";
  } catch {
    // a secret sealed under another SESSION_SECRET: finishing will say so; stage here meanwhile
    return "local";
  }
}

/**
 * The tus data store of the gateway: hands each call to the store the upload is staged in (the
 * local inspecting file store, or the cloud store read from storage_config at the call).
 * `onRemove` runs once a terminated upload's bytes are gone, before tus answers the DELETE.
 */
export class UploadStaging extends DataStore {
  private readonly db: Db;
  readonly local: InspectingFileStore;
  private readonly onRemove: ((id: string) => Promise<void>) | undefined;

  constructor(props: { db: Db; local: InspectingFileStore; onRemove?: (id: string) => Promise<void> }) {
    super();
    this.db = props.db;
    this.local = props.local;
    this.onRemove = props.onRemove;
    this.extensions = props.local.extensions;
  }

  /** The store upload `id` is staged in (local when it has no row: tus then finds nothing). */
  private async storeOf(id: string): Promise<DataStore> {
    const row = await this.db.prisma.upload.findUnique({ where: { id }, select: { stagedIn: true } });
    if (row?.stagedIn !== "cloud") return this.local;
    return new PortStagingStore(await storageForBackend(this.db, "cloud"), this.local.getExpiration());
  }

  override async create(upload: Upload): Promise<Upload> {
    return (await this.storeOf(upload.id)).create(upload);
  }

  override async getUpload(id: string): Promise<Upload> {
    return (await this.storeOf(id)).getUpload(id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    return (await this.storeOf(id)).write(readable, id, offset);
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    return (await this.storeOf(id)).declareUploadLength(id, length);
  }

  override async remove(id: string): Promise<void> {
    await (await this.storeOf(id)).remove(id);
    await this.onRemove?.(id);
  }

  override getExpiration(): number {
    return this.local.getExpiration();
  }
}
