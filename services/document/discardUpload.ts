import type { Db } from "@services/shared/db";
import { removeStaged } from "./staging";

/**
 * Forgets an unfinished upload: its `uploads` row and its staged bytes (a client cut off for
 * sending more than it declared, a terminated or expired upload). Never throws for a missing row
 * or file. @throws when the database refuses the delete.
 */
export async function discardUpload(props: { db: Db; uploadId: string; stagedPath: string }): Promise<void> {
  await props.db.prisma.upload.deleteMany({ where: { id: props.uploadId } });
  await removeStaged(props.stagedPath);
}
