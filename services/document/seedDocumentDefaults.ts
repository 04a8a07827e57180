import type { Tx } from "@services/shared/db";

/**
 * The document service's rows a new portal needs, in the seed's transaction: the storage settings
 * (local disk) when none exist.
 * @throws when the database refuses the write.
 */
export async function seedDocumentDefaults(tx: Tx): Promise<void> {
  if ((await tx.storageConfig.count()) === 0) {
    await tx.storageConfig.create({ data: { updatedBy: "seed" } });
  }
}
