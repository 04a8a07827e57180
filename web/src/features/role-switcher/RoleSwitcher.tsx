import "./roleSwitcher.css";
import { useQuery } from "@apollo/client/react";
import { Button, Callout, Classes, H1, Intent, NonIdealState, Spinner } from "@blueprintjs/core";
import { Lock, LogIn, People } from "@blueprintjs/icons";
import { USER_TYPE_LABELS } from "@web/features/admin-users/directory";
import { NotFoundPage } from "@web/features/home/NotFound";
import { DemoRolesDocument, type DemoRolesQuery } from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { LoadError } from "@web/ui/LoadError";
import { Link, Navigate } from "react-router-dom";
import { useRoleSwitch } from "./useRoleSwitch";

type DemoRoles = Extract<DemoRolesQuery["demoRoles"], { __typename: "QueryDemoRolesSuccess" }>["data"];

/**
 * The role switcher (issue 21, /dev/roles): signs in, in one click, as the demo user of each role
 * that "Generate demo data" made, and opens that role's first page. For a mainAdmin, or a session an
 * earlier switch began; never in production, where this page is the 404 page (the server says so).
 */
export function RoleSwitcherPage() {
  const { data, error, refetch } = useQuery(DemoRolesDocument, { fetchPolicy: "network-only" });
  const answer = data?.demoRoles;
  if (answer?.__typename === "AppError" && answer.code === "NOT_FOUND") return <NotFoundPage />;
  if (answer?.__typename === "AppError" && answer.code === "UNAUTHENTICATED") {
    return <Navigate to="/auth" replace />;
  }
  return (
    <section className="portal-page">
      <H1>Role Switcher</H1>
      <p className={Classes.TEXT_MUTED}>
        Sign in as the demo user of a role to see the portal as that role sees it. Available outside
        production only.
      </p>
      {answer?.__typename === "AppError" ? (
        <Callout intent={Intent.DANGER} icon={<Lock />} title="Permission Denied" role="alert">
          <p>{answer.message}</p>
          <p>The role switcher is for a main admin, from Testing Tools.</p>
        </Callout>
      ) : answer ? (
        <DemoRoleList roles={answer.data} />
      ) : error ? (
        <LoadError title="The demo users could not be read" error={error} onRetry={() => void refetch()} />
      ) : (
        <Spinner size={24} aria-label="Loading the demo users" />
      )}
    </section>
  );
}

function DemoRoleList({ roles }: { roles: DemoRoles }) {
  const roleSwitch = useRoleSwitch();
  const current = roles.users.find((u) => u.id === roles.currentUserId);
  return (
    <>
      {roles.switchedBy && current ? (
        <Callout intent={Intent.PRIMARY} icon={<People />} className="portal-page-after-callout">
          You are {current.firstName} {current.lastName}, the demo{" "}
          {USER_TYPE_LABELS[current.userType].toLowerCase()}, through {roles.switchedBy}'s role switch. Log
          out to be yourself again.
        </Callout>
      ) : null}
      {roles.users.length === 0 ? (
        <NonIdealState
          icon={<People />}
          title="No demo users yet"
          description="“Generate demo data” on Testing Tools makes a demo prospect, clients, a user admin and a main admin."
          action={<Link to="/admin/testing">Open Testing Tools</Link>}
        />
      ) : (
        <DataTable
          scrollClassName="role-switcher-table"
          region="Demo users"
          label="Demo users"
          striped
          columns={["Role", "Name", "Email"]}
          actions
          rows={roles.users}
        >
          {(user) => {
            const role = USER_TYPE_LABELS[user.userType];
            const isCurrent = user.id === roles.currentUserId;
            return (
              <tr key={user.id} data-role={user.userType}>
                <th scope="row">{role}</th>
                <td>
                  {user.firstName} {user.lastName}
                </td>
                <td>{user.email}</td>
                <td>
                  <Button
                    icon={<LogIn />}
                    text={isCurrent ? "Signed in" : `Sign in as ${role}`}
                    intent={isCurrent ? Intent.NONE : Intent.PRIMARY}
                    disabled={isCurrent || roleSwitch.isPending}
                    onClick={() => void roleSwitch.run(user.id)}
                  />
                </td>
              </tr>
            );
          }}
        </DataTable>
      )}
      {roles.switchedBy || roles.users.length === 0 ? null : (
        <p className="portal-page-after-callout">
          <Link to="/admin/testing">Back to Testing Tools</Link>
        </p>
      )}
    </>
  );
}
