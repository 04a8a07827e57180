import type { Db } from "../shared/db";
import { UserError } from "./errors";

/** The public card of a user the console shows (spec §7, GET /api/users/by-uniqueid). */
export interface UserCard {
  id: number;
  uniqueId: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  esrtSynced: boolean;
}

/**
 * Finds a user by their public unique id. The caller decides who may see it.
 * @throws UserError USER_NOT_FOUND.
 */
export async function findUserByUniqueId(props: { db: Db; uniqueId: string }): Promise<UserCard> {
  const user = await props.db.prisma.user.findUnique({
    where: { uniqueId: props.uniqueId },
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
