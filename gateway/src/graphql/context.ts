import type { SystemProbes } from "@services/diagnostics";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { UserType } from "@services/shared/generated/prisma/enums";
import type { Request, Response } from "express";
import type { IdentityDeps } from "../auth/identity";
import type { Permission } from "../auth/permissions";

/** The signed-in user as resolvers see it. */
export interface CurrentUser {
  id: number;
  userType: UserType;
  permissions: readonly Permission[];
}

/** What every resolver receives. `currentUser` is null until a session carries a user. */
export interface GraphQLContext {
  req: Request;
  res: Response;
  config: Config;
  db: Db;
  requestId: string;
  /** sessions, rate limits and the rest the identity operations need */
  identity: IdentityDeps;
  currentUser: CurrentUser | null;
  /** the process's backing services, for the testing tools' health checks */
  probes: SystemProbes;
}
