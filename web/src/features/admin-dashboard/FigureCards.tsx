import { Card, Classes, H2, Tag } from "@blueprintjs/core";
import type { DashboardFigure } from "@web/generated/graphql";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import {
  type Dashboard,
  formatCount,
  linkOf,
  PAGE_NAMES,
  SYNC_HEALTH_LABELS,
  USER_STATUS_LABELS,
  USER_TYPE_LABELS,
  userFilterPath,
} from "./dashboard";

/** The users of each bucket, each linking to the directory filtered to it when the admin may open it. */
function UserCounts({
  label,
  buckets,
  labels,
  users,
  filter,
}: {
  label: string;
  buckets: readonly { key: string; count: number }[];
  labels: Readonly<Record<string, string | undefined>>;
  users: string | null | undefined;
  filter: "userTypes" | "userStatuses";
}) {
  return (
    <CountList
      label={label}
      items={buckets.map((b) => ({
        key: b.key,
        label: labels[b.key] ?? b.key,
        count: b.count,
        href: users ? userFilterPath(users, filter, b.key) : null,
      }))}
    />
  );
}

/** Props of the figure cards. */
export interface FigureCardsProps {
  dashboard: Dashboard;
}

/**
 * One card per figure: users by type and by status, unverified accounts, pending documents,
 * appointments, the Pro-app sync, email failures and the event pipeline. Each says which page acts
 * on it and links there only when this admin holds that page's permissions.
 */
export function FigureCards({ dashboard: d }: FigureCardsProps) {
  const users = linkOf(d, "users");
  return (
    <div className="dashboard-grid">
      <FigureCard
        title="Users by type"
        figure="users"
        dashboard={d}
        value={d.users.total}
        unit="users in all"
      >
        <UserCounts
          label="Users by type"
          buckets={d.users.byType}
          labels={USER_TYPE_LABELS}
          users={users}
          filter="userTypes"
        />
      </FigureCard>
      <FigureCard title="Users by status" figure="users" dashboard={d}>
        <UserCounts
          label="Users by status"
          buckets={d.users.byStatus}
          labels={USER_STATUS_LABELS}
          users={users}
          filter="userStatuses"
        />
      </FigureCard>
      <FigureCard
        title="Unverified accounts"
        figure="unverified"
        dashboard={d}
        value={d.users.unverified}
        unit={d.users.unverified === 1 ? "email not verified yet" : "emails not verified yet"}
      />
      <FigureCard
        title="Pending documents"
        figure="pendingDocuments"
        dashboard={d}
        value={d.pendingDocuments}
        unit={d.pendingDocuments === 1 ? "document waits for a decision" : "documents wait for a decision"}
      />
      <FigureCard
        title="Appointments"
        figure="appointments"
        dashboard={d}
        value={d.appointments.today}
        unit="today"
      >
        <p className="dashboard-detail">
          {formatCount(d.appointments.thisWeek)} this week, {formatCount(d.appointments.pendingThisWeek)} of
          them waiting for confirmation
        </p>
      </FigureCard>
      <FigureCard title="Pro-app sync" figure="sync" dashboard={d}>
        <p className="dashboard-detail">
          <Tag
            minimal
            round
            intent={
              d.sync.health === "healthy" ? "success" : d.sync.health === "disabled" ? "none" : "warning"
            }
          >
            {SYNC_HEALTH_LABELS[d.sync.health] ?? d.sync.health}
          </Tag>{" "}
          {formatCount(d.sync.synced)} of {formatCount(d.sync.users)} users synced
        </p>
        <p className="dashboard-detail">
          {formatCount(d.sync.pending)} pending, {formatCount(d.sync.failing)} failing,{" "}
          {formatCount(d.sync.dead)} dead
          {d.sync.failingEndpoints > 0 ? `; ${d.sync.failingEndpoints} endpoint(s) failing` : ""}
        </p>
      </FigureCard>
      <FigureCard
        title="Email failures"
        figure="emailFailures"
        dashboard={d}
        value={d.email.failedLast24h}
        unit="in the last 24 hours"
      >
        <p className="dashboard-detail">{formatCount(d.email.queued)} waiting to be sent</p>
      </FigureCard>
      <Card className="dashboard-card" compact>
        <H2 className="dashboard-card-title">Events</H2>
        <p className="dashboard-value">
          <span className="dashboard-number">{formatCount(d.events.outboxBacklog)}</span> waiting in the
          outbox
        </p>
        <p className="dashboard-detail">
          {formatCount(d.events.deadLetters)} dead {d.events.deadLetters === 1 ? "letter" : "letters"}
        </p>
        <p className={`dashboard-where ${Classes.TEXT_MUTED}`}>
          No page acts on these: operators follow them in the logs and at /metrics.
        </p>
      </Card>
    </div>
  );
}

interface FigureCardProps {
  title: string;
  figure: DashboardFigure;
  dashboard: Dashboard;
  value?: number;
  unit?: string;
  children?: ReactNode;
}

/** A figure's card: its title, its number, details, and the page that acts on it. */
function FigureCard({ title, figure, dashboard, value, unit, children }: FigureCardProps) {
  const href = linkOf(dashboard, figure);
  const page = PAGE_NAMES[figure];
  return (
    <Card className="dashboard-card" compact data-figure={figure}>
      <H2 className="dashboard-card-title">{title}</H2>
      {value === undefined ? null : (
        <p className="dashboard-value">
          <span className="dashboard-number">{formatCount(value)}</span> {unit}
        </p>
      )}
      {children}
      <p className="dashboard-where">
        {href ? (
          <Link to={href}>Open {page}</Link>
        ) : (
          <span className={Classes.TEXT_MUTED}>Handled in {page}, which your account cannot open.</span>
        )}
      </p>
    </Card>
  );
}

interface CountListProps {
  label: string;
  items: { key: string; label: string; count: number; href: string | null }[];
}

/** Counts by value, each a link to the matching users when the admin may follow it. */
function CountList({ label, items }: CountListProps) {
  return (
    <ul className="dashboard-counts" aria-label={label}>
      {items.map((item) => (
        <li key={item.key}>
          {item.href ? <Link to={item.href}>{item.label}</Link> : <span>{item.label}</span>}
          <span className="dashboard-count">{formatCount(item.count)}</span>
        </li>
      ))}
    </ul>
  );
}
