import { builder, PUBLIC } from "@gateway/graphql/builder";
import { runIdentity } from "@gateway/graphql/run";
import { AppError } from "@services/shared/errors";
import { type DemoRoleUser, demoRoleUsers, ROLE_SWITCH_ABSENT_MESSAGE } from "@services/user";
import { roleSwitcherExists, roleSwitcherOf } from "./roleSwitchRule";
import { requireUser, sessionOwner } from "./session";
import { UserTypeEnum } from "./user";

// The role switcher's list (issue 21, /dev/roles, never in production): the demo user of each role
// that "Generate demo data" made. Signing in as one is POST /api/dev/roles/switch
// (./roleSwitch.rest.ts), a session step like the other sign-ins.

/** The role switcher as the page shows it. */
interface DemoRolesView {
  users: DemoRoleUser[];
  currentUserId: number;
  switchedBy: string | null;
}

const DemoRoleUserRef = builder.objectRef<DemoRoleUser>("DemoRoleUser").implement({
  description: "A demo user the role switcher signs in as.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    userType: t.field({ type: UserTypeEnum, resolve: (u) => u.userType }),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email"),
  }),
});

const DemoRolesRef = builder.objectRef<DemoRolesView>("DemoRoles").implement({
  description: "The role switcher: one demo user of each role, made by the testing tools' demo data.",
  fields: (t) => ({
    users: t.field({
      type: [DemoRoleUserRef],
      description: "A prospect, a client, a userAdmin and a mainAdmin, in that order: those that exist.",
      resolve: (r) => r.users,
    }),
    currentUserId: t.exposeInt("currentUserId", { description: "The signed-in user's id." }),
    switchedBy: t.exposeString("switchedBy", {
      nullable: true,
      description: "The mainAdmin whose role switch signed this session in, when one did.",
    }),
  }),
});

builder.queryField("demoRoles", (t) =>
  t.field({
    type: DemoRolesRef,
    description:
      "The role switcher's demo users, for a mainAdmin or a session a role switch began. Never in production: there it answers NOT_FOUND to everyone, signed in or not.",
    // public so that production answers NOT_FOUND before anything else; the resolver checks the caller
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(async () => {
        if (!roleSwitcherExists(ctx.config)) throw new AppError("NOT_FOUND", ROLE_SWITCH_ABSENT_MESSAGE);
        // a limited session (verifying its email, enrolling a second factor) is told why it is refused
        const caller = sessionOwner(ctx.res) ? requireUser(ctx.res) : null;
        const switchedBy = ctx.req.session?.roleSwitchedBy;
        const switcher = await roleSwitcherOf({ db: ctx.db, caller, switchedBy });
        return {
          users: await demoRoleUsers(ctx.db),
          currentUserId: caller?.id ?? switcher.id,
          switchedBy: switchedBy === undefined ? null : `${switcher.firstName} ${switcher.lastName}`.trim(),
        };
      }),
  }),
);
