import "./palette.css";
import { Callout, Classes, Dialog, InputGroup, Intent } from "@blueprintjs/core";
import { Application, Person, Search } from "@blueprintjs/icons";
import { useCurrentUser, useServerConfig } from "@web/data/rest";
import { isAdminType } from "@web/features/console/consoleUser";
import type { SafeUser } from "@web/lib/auth";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import {
  adminPages,
  matchPages,
  type PaletteItem,
  type PalettePage,
  type PaletteUser,
  resultsSentence,
  userDrawerPath,
} from "./paletteItems";
import { usePaletteShortcut } from "./usePaletteShortcut";
import { usePaletteUsers } from "./usePaletteUsers";

/** Whether `pathname` is a page of the admin area (/admin and below). */
function isAdminPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

/**
 * The admin area's command palette (issue 21): Ctrl+K (⌘K on macOS) on any admin page opens a box
 * that jumps to an admin page by name or finds a user (the user directory's search) and opens their
 * drawer in User Management. Keyboard only: arrows move, Enter opens, Escape closes; a combobox
 * over a listbox with its results counted in a live region. Mounted once by the layout; nothing on
 * other pages, for other users, or while the session is limited.
 */
export function CommandPalette() {
  const { user } = useCurrentUser();
  const { pathname } = useLocation();
  const [isOpen, setOpen] = useState(false);
  const enabled =
    user !== null &&
    isAdminType(user.userType) &&
    !user.needsVerification &&
    !user.needsTwoFactorEnrolment &&
    isAdminPath(pathname);
  usePaletteShortcut(enabled, () => setOpen(true));
  const labelId = useId();
  if (!enabled || !user) return null;
  return (
    <Dialog
      isOpen={isOpen}
      onClose={() => setOpen(false)}
      aria-labelledby={labelId}
      className="palette-dialog"
    >
      <PaletteBody user={user} labelId={labelId} onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Props of the palette's content, mounted anew each time it opens. */
interface PaletteBodyProps {
  user: SafeUser;
  labelId: string;
  onDone(): void;
}

function PaletteBody({ user, labelId, onDone }: PaletteBodyProps) {
  const navigate = useNavigate();
  const { config, fromServer } = useServerConfig();
  const [query, setQuery] = useState("");
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const inputId = useId();
  const listId = useId();
  const hintId = useId();

  const roleSwitcher = fromServer && config.environment !== "production";
  const allPages = useMemo(() => adminPages(user, { roleSwitcher }), [user, roleSwitcher]);
  const pages = useMemo(() => matchPages(allPages, query), [allPages, query]);
  const findsUsers = user.permissions.includes("manage:users");
  const search = usePaletteUsers(query, findsUsers);
  const items: PaletteItem[] = [...pages, ...search.users];
  const activeIndex = Math.max(
    0,
    items.findIndex((item) => item.key === activeKey),
  );
  const active = items[activeIndex] ?? null;
  const optionId = (index: number) => `${listId}-option-${index}`;
  const activeId = active ? optionId(activeIndex) : undefined;

  // the active option stays in view as the arrows move it
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  const choose = (item: PaletteItem) => {
    onDone();
    navigate(item.kind === "page" ? item.path : userDrawerPath(item.id));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActiveKey(items[(activeIndex + step + items.length) % items.length]?.key ?? null);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (active) choose(active);
    }
  };

  const sentence = resultsSentence({
    query,
    pages: pages.length,
    users: search.users.length,
    searching: search.searching,
    findsUsers,
    problem: search.problem,
  });

  const option = (item: PaletteItem, index: number, icon: ReactNode, text: string, label: string) => {
    const isActive = index === activeIndex;
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input takes the keys (aria-activedescendant); a click is the mouse's way
      <div
        key={item.key}
        id={optionId(index)}
        role="option"
        tabIndex={-1}
        aria-selected={isActive}
        className={`${Classes.MENU_ITEM} palette-option${isActive ? ` ${Classes.ACTIVE}` : ""}`}
        onMouseMove={() => setActiveKey(item.key)}
        onClick={() => choose(item)}
      >
        <span className={Classes.MENU_ITEM_ICON} aria-hidden>
          {icon}
        </span>
        <span className={`${Classes.FILL} ${Classes.TEXT_OVERFLOW_ELLIPSIS}`}>{text}</span>
        <span className={`${Classes.MENU_ITEM_LABEL} palette-option-label`}>{label}</span>
      </div>
    );
  };

  const group = (name: string, heading: string, children: ReactNode[]) =>
    children.length === 0 ? null : (
      // biome-ignore lint/a11y/useSemanticElements: a group of a listbox's options (ARIA's listbox pattern), which a fieldset is not
      <div role="group" aria-label={name}>
        <div aria-hidden className={Classes.MENU_HEADER}>
          <h6 className={Classes.HEADING}>{heading}</h6>
        </div>
        {children}
      </div>
    );

  return (
    <div className="palette">
      <label id={labelId} htmlFor={inputId} className="palette-label">
        Go to a page{findsUsers ? " or find a user" : ""}
      </label>
      <InputGroup
        id={inputId}
        size="large"
        leftIcon={<Search />}
        placeholder={findsUsers ? "Page name, or a user's name, email or unique id" : "Page name"}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setActiveKey(null);
        }}
        onKeyDown={handleKeyDown}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={items.length > 0 ? listId : undefined}
        aria-activedescendant={activeId}
        aria-autocomplete="list"
        aria-describedby={hintId}
        autoComplete="off"
        spellCheck={false}
        autoFocus
      />
      {items.length > 0 ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Pages and users"
          className={`${Classes.MENU} palette-list`}
        >
          {group(
            "Admin pages",
            "Pages",
            pages.map((page: PalettePage, i) => option(page, i, <Application />, page.title, page.path)),
          )}
          {group(
            "Users",
            "Users",
            search.users.map((found: PaletteUser, i) =>
              option(found, pages.length + i, <Person />, found.name, found.email),
            ),
          )}
        </div>
      ) : null}
      {search.problem ? (
        <Callout intent={Intent.DANGER} compact className="palette-problem">
          Users could not be searched: {search.problem}
        </Callout>
      ) : null}
      <p className="palette-status" role="status">
        {sentence}
      </p>
      <p id={hintId} className={`${Classes.TEXT_MUTED} palette-hint`}>
        Arrow keys to move, Enter to open, Escape to close.
      </p>
    </div>
  );
}
