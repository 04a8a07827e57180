import type { UserCard } from "@schema/api/user";
import { uniqueIdSchema } from "@schema/validation/user";
import type { Db } from "@services/shared/db";
import { UserError } from "./errors";

/**
 * Finds a user by their public unique id. The caller decides who may see it. An id the shared
 * uniqueIdSchema refuses (NUL, unpaired surrogates, empty, over 64 characters) names nobody and never
 * reaches the database: Prisma batches the lookups of one tick into one query, which such a value
 * would fail for every caller in the batch.
 * @throws UserError USER_NOT_FOUND.
 */
export async function findUserByUniqueId(props: { db: Db; uniqueId: string }): Promise<UserCard> {
  const parsed = uniqueIdSchema.safeParse(props.uniqueId);
  if (!parsed.success) throw new UserError("USER_NOT_FOUND", "User not found");
  const user = await props.db.prisma.user.findUnique({
    where: { uniqueId: parsed.data },
    select: {
      id: true,
      uniqueId: true,
      firstName: true,
      lastName: true,
      companyName: true,
      esrtSynced: true,
    },
  });
  if (!user) throw new UserError("USER_NOT_FOUND", "User not found");
  return user;
}
