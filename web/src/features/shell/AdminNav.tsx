import { Button, Classes, Menu, MenuItem } from "@blueprintjs/core";
import {
  Calendar,
  Cog,
  Dashboard,
  Database,
  Document,
  DoubleChevronLeft,
  DoubleChevronRight,
  Envelope,
  Exchange,
  People,
  SendMessage,
  Shield,
  Style,
  Wrench,
} from "@blueprintjs/icons";
import type { MouseEvent, ReactElement } from "react";
import { useId } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { type AdminPageGroup, type AdminPageIcon, isCurrentAdminPage } from "./adminPages";

/** The icon drawn for each admin page (imported by name, so only these are bundled). */
export const ADMIN_PAGE_ICONS: Record<AdminPageIcon, ReactElement> = {
  dashboard: <Dashboard />,
  people: <People />,
  calendar: <Calendar />,
  document: <Document />,
  exchange: <Exchange />,
  style: <Style />,
  shield: <Shield />,
  database: <Database />,
  envelope: <Envelope />,
  cog: <Cog />,
  send: <SendMessage />,
  wrench: <Wrench />,
};

/**
 * The click of an in-app link: the router follows it without reloading the app; a click that asks
 * for a new tab or window (a modifier key, the middle button) is left to the browser.
 */
export function useFollowLink(): (event: MouseEvent, to: string) => void {
  const navigate = useNavigate();
  return (event, to) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
}

/** Props of the admin navigation. */
export interface AdminNavProps {
  /** the pages this admin may open */
  groups: readonly AdminPageGroup[];
  /** folded to its icons */
  collapsed: boolean;
  onToggleCollapsed(): void;
}

/**
 * The admin area's side navigation (issue 21): the admin pages this admin may open, in labelled
 * groups of links, the current one marked (aria-current="page"), and a button that folds it to its
 * icons (the labels stay the links' names, and show as a tooltip).
 */
export function AdminNav({ groups, collapsed, onToggleCollapsed }: AdminNavProps) {
  const { pathname } = useLocation();
  const follow = useFollowLink();
  const id = useId();
  const listId = `${id}-pages`;
  // folded: icons only; the group labels and page names stay for screen readers
  const hidden = collapsed ? " portal-visually-hidden" : "";
  const toggleName = collapsed ? "Expand the admin navigation" : "Collapse the admin navigation";
  return (
    <nav aria-label="Admin" className={collapsed ? "admin-nav admin-nav-collapsed" : "admin-nav"}>
      <Button
        variant="minimal"
        size="small"
        className="admin-nav-toggle"
        icon={collapsed ? <DoubleChevronRight /> : <DoubleChevronLeft />}
        text={collapsed ? undefined : "Collapse"}
        aria-label={toggleName}
        title={toggleName}
        aria-expanded={!collapsed}
        aria-controls={listId}
        onClick={onToggleCollapsed}
      />
      <div id={listId} className="admin-nav-groups">
        {groups.map((group, i) => {
          const labelId = `${id}-group-${i}`;
          return (
            <div key={group.label} className="admin-nav-group">
              <div id={labelId} className={`admin-nav-group-label ${Classes.TEXT_MUTED}${hidden}`}>
                {group.label}
              </div>
              {/* a list named by its group's label */}
              <Menu role="list" aria-labelledby={labelId} className="admin-nav-menu">
                {group.pages.map((page) => {
                  const current = isCurrentAdminPage(page, pathname);
                  return (
                    <MenuItem
                      key={page.path}
                      roleStructure="listitem"
                      href={page.path}
                      text={page.label}
                      textClassName={collapsed ? "portal-visually-hidden" : undefined}
                      aria-label={page.name}
                      title={collapsed ? (page.name ?? page.label) : undefined}
                      icon={ADMIN_PAGE_ICONS[page.icon]}
                      active={current}
                      aria-current={current ? "page" : undefined}
                      onClick={(event: MouseEvent) => follow(event, page.path)}
                    />
                  );
                })}
              </Menu>
            </div>
          );
        })}
      </div>
    </nav>
  );
}
