import type { DocumentActor } from "@services/document";
import type { User } from "@services/shared/generated/prisma/client";
import { isClientType, permissionsOf } from "./permissions";

/** The document service's view of a signed-in user (permissions from the one matrix). */
export function documentActor(user: Pick<User, "id" | "firstName" | "lastName" | "userType">): DocumentActor {
  const held = permissionsOf(user.userType);
  return {
    id: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    isClient: isClientType(user.userType),
    readAll: held.includes("read:all_documents"),
    approve: held.includes("approve:documents"),
  };
}
