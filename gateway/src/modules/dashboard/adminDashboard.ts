import type { Permission } from "@gateway/auth/permissions";
import { builder } from "@gateway/graphql/builder";
import { type AppointmentFigures, appointmentFigures } from "@services/appointment";
import { countPendingDocuments } from "@services/document";
import { type EmailFigures, emailFigures } from "@services/email";
import type { EsrtHealth } from "@services/esrt-sync";
import { type SyncCounts, syncOverview } from "@services/esrt-sync";
import { type AuditEntryView, listAuditEntries } from "@services/shared/auditLog";
import type { Db } from "@services/shared/db";
import { type EventFigures, eventFigures } from "@services/shared/events/figures";
import { type DayCount, type UserFigures, userFigures } from "@services/user";
import { AuditEntryRef, auditUserNames } from "../audit/audit";

// The admin dashboard's figures (issue 11; any admin): each read through the owning service's own
// read function, and for each figure the page that acts on it and whether this admin may open it
// (the page's permissions, spec §2's route table). The event pipeline's figures (outbox backlog,
// dead letters) have no page of their own: operators act on them with the logs and /metrics.

/** The dashboard's figures, each with the page that acts on it. */
export const DASHBOARD_LINKS = {
  users: { path: "/admin/user-management", permissions: ["manage:users"] },
  unverified: { path: "/admin/user-management?emailVerified=false", permissions: ["manage:users"] },
  pendingDocuments: {
    path: "/admin/documentation",
    permissions: ["read:all_documents", "approve:documents"],
  },
  appointments: { path: "/admin/appointments", permissions: ["manage:appointments"] },
  sync: { path: "/admin/esrt-communication", permissions: ["manage:esrt_sync"] },
  emailFailures: { path: "/admin/email-testing", permissions: ["manageEmails"] },
} as const satisfies Record<string, { path: string; permissions: readonly Permission[] }>;

type Figure = keyof typeof DASHBOARD_LINKS;

interface DashboardLink {
  figure: Figure;
  path: string;
  permissions: readonly Permission[];
  allowed: boolean;
}

interface SyncHealth {
  health: EsrtHealth;
  counts: SyncCounts;
  failingEndpoints: number;
}

interface AdminDashboard {
  generatedAt: Date;
  users: UserFigures;
  pendingDocuments: number;
  appointments: AppointmentFigures;
  sync: SyncHealth;
  email: EmailFigures;
  events: EventFigures;
  recentActivity: AuditEntryView[];
  links: DashboardLink[];
}

const HEALTH_ORDER: readonly EsrtHealth[] = ["healthy", "disabled", "degraded", "paused"];

/** The Pro-app sync's health: the worst of the NATS channel and the enabled endpoints. */
async function syncHealth(db: Db): Promise<SyncHealth> {
  const overview = await syncOverview(db);
  const healths = [
    ...(overview.nats.enabled ? [overview.nats.health] : []),
    ...overview.endpoints.filter((e) => e.enabled).map((e) => e.health),
  ];
  const health =
    healths.length === 0
      ? "disabled"
      : healths.reduce((worst, h) => (HEALTH_ORDER.indexOf(h) > HEALTH_ORDER.indexOf(worst) ? h : worst));
  return {
    health,
    counts: overview.counts,
    failingEndpoints: overview.endpoints.filter((e) => e.health === "degraded" || e.health === "paused")
      .length,
  };
}

/**
 * Every figure of the dashboard for an admin holding `permissions`, as of `now`.
 * @throws the database driver's errors.
 */
export async function adminDashboard(props: {
  db: Db;
  permissions: readonly string[];
  now?: Date;
}): Promise<AdminDashboard> {
  const now = props.now ?? new Date();
  const { db } = props;
  const [users, pendingDocuments, appointments, sync, email, events, activity] = await Promise.all([
    userFigures({ db, now }),
    countPendingDocuments({ db }),
    appointmentFigures({ db, now }),
    syncHealth(db),
    emailFigures({ db, now }),
    eventFigures({ db }),
    listAuditEntries({ db, userNames: auditUserNames(db), first: 10, readerPermissions: props.permissions }),
  ]);
  const links = (Object.keys(DASHBOARD_LINKS) as Figure[]).map((figure) => {
    const link = DASHBOARD_LINKS[figure];
    return {
      figure,
      path: link.path,
      permissions: link.permissions,
      allowed: link.permissions.every((p) => props.permissions.includes(p)),
    };
  });
  return {
    generatedAt: now,
    users,
    pendingDocuments,
    appointments,
    sync,
    email,
    events,
    recentActivity: activity.nodes,
    links,
  };
}

const DashboardFigureEnum = builder.enumType("DashboardFigure", {
  values: Object.keys(DASHBOARD_LINKS) as Figure[],
});

const DashboardLinkRef = builder.objectRef<DashboardLink>("DashboardLink").implement({
  description: "The page that acts on a figure, and whether this admin holds its permissions.",
  fields: (t) => ({
    figure: t.field({ type: DashboardFigureEnum, resolve: (l) => l.figure }),
    path: t.exposeString("path"),
    permissions: t.stringList({ resolve: (l) => [...l.permissions] }),
    allowed: t.exposeBoolean("allowed", { description: "the admin may open the page (link shown)" }),
  }),
});

const CountByRef = builder
  .objectRef<{ key: string; count: number }>("DashboardCount")
  .implement({ fields: (t) => ({ key: t.exposeString("key"), count: t.exposeInt("count") }) });

const DayCountRef = builder.objectRef<DayCount>("DashboardDayCount").implement({
  fields: (t) => ({
    day: t.exposeString("day", { description: "business day (America/Los_Angeles), YYYY-MM-DD" }),
    count: t.exposeInt("count"),
  }),
});

const UserFiguresRef = builder.objectRef<UserFigures>("DashboardUsers").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    byType: t.field({
      type: [CountByRef],
      resolve: (u) => u.byType.map((b) => ({ key: b.userType, count: b.count })),
    }),
    byStatus: t.field({
      type: [CountByRef],
      resolve: (u) => u.byStatus.map((b) => ({ key: b.userStatus, count: b.count })),
    }),
    unverified: t.exposeInt("unverified"),
    registrations: t.field({
      type: [DayCountRef],
      description: "new accounts per business day, the last 30 days, oldest first",
      resolve: (u) => u.registrations,
    }),
  }),
});

const AppointmentFiguresRef = builder.objectRef<AppointmentFigures>("DashboardAppointments").implement({
  fields: (t) => ({
    today: t.exposeInt("today"),
    thisWeek: t.exposeInt("thisWeek"),
    pendingThisWeek: t.exposeInt("pendingThisWeek"),
  }),
});

const SyncHealthRef = builder.objectRef<SyncHealth>("DashboardSync").implement({
  fields: (t) => ({
    health: t.exposeString("health", { description: "healthy, degraded, paused or disabled" }),
    users: t.int({ resolve: (s) => s.counts.users }),
    synced: t.int({ resolve: (s) => s.counts.synced }),
    pending: t.int({ resolve: (s) => s.counts.pending }),
    failing: t.int({ resolve: (s) => s.counts.failing }),
    dead: t.int({ resolve: (s) => s.counts.dead }),
    failingEndpoints: t.exposeInt("failingEndpoints"),
  }),
});

const EmailFiguresRef = builder.objectRef<EmailFigures>("DashboardEmail").implement({
  fields: (t) => ({
    failedLast24h: t.exposeInt("failedLast24h"),
    queued: t.exposeInt("queued"),
  }),
});

const EventFiguresRef = builder.objectRef<EventFigures>("DashboardEvents").implement({
  fields: (t) => ({
    outboxBacklog: t.exposeInt("outboxBacklog"),
    oldestUnpublishedAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => e.oldestUnpublishedAt }),
    deadLetters: t.exposeInt("deadLetters"),
  }),
});

const AdminDashboardRef = builder.objectRef<AdminDashboard>("AdminDashboard").implement({
  description: "The admin dashboard's figures, and the pages that act on them.",
  fields: (t) => ({
    generatedAt: t.field({ type: "DateTime", resolve: (d) => d.generatedAt }),
    users: t.field({ type: UserFiguresRef, resolve: (d) => d.users }),
    pendingDocuments: t.exposeInt("pendingDocuments"),
    appointments: t.field({ type: AppointmentFiguresRef, resolve: (d) => d.appointments }),
    sync: t.field({ type: SyncHealthRef, resolve: (d) => d.sync }),
    email: t.field({ type: EmailFiguresRef, resolve: (d) => d.email }),
    events: t.field({ type: EventFiguresRef, resolve: (d) => d.events }),
    recentActivity: t.field({
      type: [AuditEntryRef],
      description: "the latest 10 audit entries this admin may read",
      resolve: (d) => d.recentActivity,
    }),
    links: t.field({ type: [DashboardLinkRef], resolve: (d) => d.links }),
  }),
});

builder.queryField("adminDashboard", (t) =>
  t.field({
    type: AdminDashboardRef,
    description: "The admin dashboard's figures (any admin: mainAdmin or userAdmin).",
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) =>
      adminDashboard({ db: ctx.db, permissions: ctx.currentUser?.permissions ?? [] }),
  }),
);
