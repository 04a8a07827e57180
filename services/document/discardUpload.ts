import type { Db } from "@services/shared/db";
import { removeStagedObjects } from "./cloudStaging";
import { removeStaged } from "./staging";
import { storageForBackend } from "./storage";

/**
 * Forgets an unfinished upload: its `uploads` row and its staged bytes, wherever they are staged (a
 * client cut off for sending more than it declared, a terminated or expired upload). Never throws
 * for a missing row or file. @throws when the database refuses the delete, or the cloud store the
 * removal of an upload staged there.
 */
export async function discardUpload(props: { db: Db; uploadId: string; stagedPath: string }): Promise<void> {
  const [row] = await props.db.prisma.upload.findMany({
    where: { id: props.uploadId },
    select: { stagedIn: true },
  });
  await props.db.prisma.upload.deleteMany({ where: { id: props.uploadId } });
  await removeStaged(props.stagedPath);
  if (row?.stagedIn === "cloud") {
    await removeStagedObjects(await storageForBackend(props.db, "cloud"), props.uploadId);
  }
}
