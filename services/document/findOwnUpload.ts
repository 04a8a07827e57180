import type { Db } from "@services/shared/db";

/** What a caller may do with a tus upload it names: continue it, or nothing (gone or someone else's). */
export type OwnUploadState = "active" | "expired" | "missing";

/**
 * Whether upload `uploadId` exists, belongs to `userId` and has not expired: another user's upload
 * reads as missing, so ids cannot be probed.
 */
export async function findOwnUpload(props: {
  db: Db;
  userId: number;
  uploadId: string;
  now?: Date;
}): Promise<OwnUploadState> {
  const now = props.now ?? new Date();
  const row = await props.db.prisma.upload.findUnique({
    where: { id: props.uploadId },
    select: { userId: true, expiresAt: true },
  });
  if (!row || row.userId !== props.userId) return "missing";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}
