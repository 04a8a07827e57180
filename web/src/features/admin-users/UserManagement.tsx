import { useQuery } from "@apollo/client/react";
import {
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  FormGroup,
  H1,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Spinner,
} from "@blueprintjs/core";
import {
  ChevronLeft,
  ChevronRight,
  Export,
  Filter,
  FilterRemove,
  Import,
  NewPerson,
  People,
  Search,
} from "@blueprintjs/icons";
import { UserDirectoryDocument, UserDirectoryFacetsDocument } from "@web/generated/graphql";
import { PREFERENCE_KEYS } from "@web/lib/preferences";
import { usePreference } from "@web/lib/usePreference";
import { useDebounced } from "@web/ui/hooks";
import { LoadError } from "@web/ui/LoadError";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { BulkActionsDialog, type BulkSelection } from "./BulkActionsDialog";
import { CreateUserDialog } from "./CreateUserDialog";
import { DirectoryFilters } from "./DirectoryFilters";
import {
  clearedFilters,
  type DirectoryState,
  exportUrl,
  filterOf,
  formatCount,
  isFiltered,
  PAGE_SIZES,
  paramsFromState,
  rangeProblem,
  sortOf,
  stateFromParams,
} from "./directory";
import { ImportUsersDialog } from "./ImportUsersDialog";
import { UserDrawer } from "./UserDrawer";
import { UserTable } from "./UserTable";
import "./users.css";

/**
 * User Management (spec §2, issue 11): the user directory. A search that answers as you type, filters
 * with counts, sortable columns, pages by cursor, row selection up to "every user matching", bulk
 * actions, create, import, export of the current filter, and a drawer for one user (also opened by
 * `?user=<id>`). The filters, sort and page size live in the address bar's query.
 */
export function UserManagementPage() {
  return <UserManagement />;
}

function UserManagement() {
  const searchId = useId();
  const sizeId = useId();
  const filtersId = useId();
  // the filter column can be put away, for the table's sake, and stays so in this browser
  const [filtersHidden, setFiltersHidden] = usePreference(PREFERENCE_KEYS.userFiltersHidden);
  const showFilters = filtersHidden !== "1";
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => stateFromParams(params), [params]);
  const drawerParam = Number(params.get("user"));
  const drawerUserId = Number.isSafeInteger(drawerParam) && drawerParam > 0 ? drawerParam : null;

  const update = useCallback(
    (next: Partial<DirectoryState>) =>
      setParams((earlier) => paramsFromState({ ...stateFromParams(earlier), ...next }, earlier), {
        replace: true,
      }),
    [setParams],
  );

  // the search box answers as you type: its text goes to the address bar (and the server) when typing pauses
  const [text, setText] = useState(state.q);
  const settled = useDebounced(text, 250);
  const sent = useRef(settled);
  useEffect(() => {
    if (settled === sent.current) return;
    sent.current = settled;
    update({ q: settled });
  }, [settled, update]);
  useEffect(() => {
    // the address changed from outside the box (Clear filters, back): show it
    setText((current) => (current.trim() === state.q.trim() ? current : state.q));
  }, [state.q]);

  const problem = rangeProblem(state);
  const filter = useMemo(() => filterOf(state, state.q), [state]);
  const sort = sortOf(state);
  const viewKey = JSON.stringify([filter, sort, state.size]);

  // cursor paging: the cursors of the pages before this one, reset whenever the view changes
  const [paging, setPaging] = useState<{ key: string; stack: (string | null)[] }>({
    key: viewKey,
    stack: [null],
  });
  const stack = paging.key === viewKey ? paging.stack : [null];
  const after = stack.at(-1) ?? null;

  // selection: ids on any page, or every user matching the filter
  const [selection, setSelection] = useState<{ key: string; ids: Set<number>; all: boolean }>({
    key: JSON.stringify(filter),
    ids: new Set(),
    all: false,
  });
  const filterKey = JSON.stringify(filter);
  const selected =
    selection.key === filterKey ? selection : { key: filterKey, ids: new Set<number>(), all: false };

  const [dialog, setDialog] = useState<"bulk" | "create" | "import" | null>(null);

  const directory = useQuery(UserDirectoryDocument, {
    variables: { filter, sort, first: state.size, after },
    skip: problem !== null,
    fetchPolicy: "cache-and-network",
  });
  const facetsQuery = useQuery(UserDirectoryFacetsDocument, {
    variables: { filter },
    skip: problem !== null,
    fetchPolicy: "cache-and-network",
  });
  const result = directory.data?.userDirectory;
  const page = result?.__typename === "QueryUserDirectorySuccess" ? result.data : undefined;
  const refused = result?.__typename === "AppError" ? result.message : undefined;
  const facetsResult = facetsQuery.data?.userDirectoryFacets;
  const facets =
    facetsResult?.__typename === "QueryUserDirectoryFacetsSuccess" ? facetsResult.data : undefined;
  const users = page?.nodes ?? [];
  const total = facets?.total;
  const pageIndex = stack.length - 1;
  const firstRow = pageIndex * state.size + 1;

  const refresh = () => {
    void directory.refetch().catch(() => undefined);
    void facetsQuery.refetch().catch(() => undefined);
  };

  const setSelected = (ids: Set<number>, all = false) => setSelection({ key: filterKey, ids, all });
  const selectedCount = selected.all ? (total ?? 0) : selected.ids.size;
  const bulkSelection: BulkSelection = selected.all
    ? { kind: "filter", filter, total: total ?? 0 }
    : { kind: "ids", ids: [...selected.ids] };

  const openUser = (id: number | null) =>
    setParams(
      (earlier) => {
        const next = new URLSearchParams(earlier);
        if (id === null) next.delete("user");
        else next.set("user", String(id));
        return next;
      },
      { replace: id === null },
    );

  const onSort = (by: DirectoryState["sort"]) =>
    update(
      state.sort === by
        ? { dir: state.dir === "asc" ? "desc" : "asc" }
        : { sort: by, dir: by === "name" ? "asc" : "desc" },
    );

  return (
    <div className="users-page">
      <div className="users-head">
        <H1>User Management</H1>
        <ButtonGroup className="users-actions">
          <Button
            icon={<People />}
            text={selectedCount > 0 ? `Bulk actions (${formatCount(selectedCount)})…` : "Bulk actions…"}
            disabled={selectedCount === 0}
            onClick={() => setDialog("bulk")}
          />
          <Button icon={<NewPerson />} text="Create user…" onClick={() => setDialog("create")} />
          <Button icon={<Import />} text="Import…" onClick={() => setDialog("import")} />
          <AnchorButton
            icon={<Export />}
            text="Export CSV"
            href={problem ? undefined : exportUrl(filter, sort)}
            disabled={problem !== null}
            download
          />
        </ButtonGroup>
      </div>
      <search className="users-search">
        <FormGroup label="Search users" labelFor={searchId}>
          <InputGroup
            id={searchId}
            type="search"
            leftIcon={<Search />}
            placeholder="Name, email, username, company, phone or unique id"
            value={text}
            maxLength={100}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        </FormGroup>
      </search>
      <div className={showFilters ? "users-body" : "users-body users-body-unfiltered"}>
        {showFilters ? (
          <div id={filtersId}>
            <DirectoryFilters
              state={state}
              facets={facets}
              onChange={update}
              onClear={() => {
                setText("");
                update(clearedFilters(state));
              }}
            />
          </div>
        ) : null}
        <section className="users-results" aria-label="Results">
          <div className="users-toolbar">
            <Button
              variant="minimal"
              size="small"
              icon={<Filter />}
              text={showFilters ? "Hide filters" : "Show filters"}
              aria-expanded={showFilters}
              aria-controls={showFilters ? filtersId : undefined}
              onClick={() => setFiltersHidden(showFilters ? "1" : null)}
            />
            <span aria-live="polite" className="users-count">
              {total === undefined
                ? ""
                : total === 0
                  ? "0 users"
                  : `${formatCount(Math.min(firstRow, total))}–${formatCount(
                      Math.min(firstRow + users.length - 1, total),
                    )} of ${formatCount(total)} users`}
            </span>
            {selectedCount > 0 ? (
              <span className="users-selection" aria-live="polite">
                {selected.all
                  ? `All ${formatCount(total ?? 0)} matching users selected`
                  : `${formatCount(selected.ids.size)} selected`}
                {!selected.all && total !== undefined && total > selected.ids.size ? (
                  <Button
                    variant="minimal"
                    size="small"
                    text={`Select all ${formatCount(total)} matching`}
                    onClick={() => setSelected(new Set(), true)}
                  />
                ) : null}
                <Button
                  variant="minimal"
                  size="small"
                  text="Clear selection"
                  onClick={() => setSelected(new Set())}
                />
              </span>
            ) : null}
          </div>
          {problem ? (
            <Callout intent="warning" title="Check the date range">
              {problem.message}
            </Callout>
          ) : refused ? (
            <NonIdealState
              title="The users could not be loaded"
              description={refused}
              action={
                <Button
                  text="Back to the first page"
                  onClick={() => setPaging({ key: viewKey, stack: [null] })}
                />
              }
            />
          ) : directory.error && !page ? (
            <LoadError title="The users could not be loaded" error={directory.error} onRetry={refresh} />
          ) : !page ? (
            <Spinner size={24} aria-label="Loading users" />
          ) : users.length === 0 ? (
            <NonIdealState
              icon={<Search />}
              title={isFiltered(state) ? "No users match" : "No users yet"}
              description={
                isFiltered(state)
                  ? "No user matches this search and these filters."
                  : "Users appear here when they register, are created or are imported."
              }
              action={
                isFiltered(state) ? (
                  <Button
                    icon={<FilterRemove />}
                    text="Clear filters"
                    onClick={() => {
                      setText("");
                      update(clearedFilters(state));
                    }}
                  />
                ) : undefined
              }
            />
          ) : (
            <UserTable
              users={users}
              sort={sort}
              onSort={onSort}
              selected={selected.ids}
              allMatching={selected.all}
              onSelect={(id, on) => {
                const ids = new Set(selected.ids);
                if (on) ids.add(id);
                else ids.delete(id);
                setSelected(ids);
              }}
              onSelectPage={(on) => {
                const ids = new Set(selected.ids);
                for (const u of users) {
                  if (on) ids.add(u.id);
                  else ids.delete(u.id);
                }
                setSelected(ids);
              }}
              onOpen={openUser}
            />
          )}
          <nav className="users-paging" aria-label="Pages">
            <Button
              icon={<ChevronLeft />}
              text="Previous"
              disabled={pageIndex === 0}
              onClick={() => setPaging({ key: viewKey, stack: stack.slice(0, -1) })}
            />
            <span>Page {formatCount(pageIndex + 1)}</span>
            <Button
              endIcon={<ChevronRight />}
              text="Next"
              disabled={!page?.hasNextPage || !page.endCursor}
              onClick={() =>
                page?.endCursor && setPaging({ key: viewKey, stack: [...stack, page.endCursor] })
              }
            />
            <FormGroup label="Rows per page" labelFor={sizeId} inline className="users-size">
              <HTMLSelect
                id={sizeId}
                value={state.size}
                options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))}
                onChange={(e) => update({ size: Number(e.currentTarget.value) })}
              />
            </FormGroup>
          </nav>
        </section>
      </div>
      <UserDrawer userId={drawerUserId} onClose={() => openUser(null)} onChanged={refresh} />
      <BulkActionsDialog
        isOpen={dialog === "bulk"}
        selection={bulkSelection}
        onClose={() => setDialog(null)}
        // the dialog stays open on its results (skipped users and why) until the admin closes it; the
        // selection stays too (for a next action, and so focus returns to the Bulk actions button)
        onDone={refresh}
      />
      <CreateUserDialog
        isOpen={dialog === "create"}
        onClose={() => setDialog(null)}
        onCreated={() => refresh()}
      />
      <ImportUsersDialog isOpen={dialog === "import"} onClose={() => setDialog(null)} onDone={refresh} />
    </div>
  );
}
