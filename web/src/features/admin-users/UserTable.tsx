import { Button, Checkbox, Classes, HTMLTable, Tag } from "@blueprintjs/core";
import { CaretDown, CaretUp, DoubleCaretVertical } from "@blueprintjs/icons";
import type { DirectoryUserFieldsFragment, UserSort, UserSortField } from "@web/generated/graphql";
import { CellText } from "@web/ui/CellText";
import {
  ACCESS_LEVEL_LABELS,
  formatDate,
  formatTime,
  USER_STATUS_LABELS,
  USER_TYPE_LABELS,
} from "./directory";

/** Props of the user table. */
export interface UserTableProps {
  users: readonly DirectoryUserFieldsFragment[];
  sort: UserSort;
  onSort(by: UserSortField): void;
  /** the ids of the selected rows (every row is selected while "all matching" is) */
  selected: ReadonlySet<number>;
  allMatching: boolean;
  onSelect(id: number, on: boolean): void;
  onSelectPage(on: boolean): void;
  onOpen(id: number): void;
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

function SortHeader(props: {
  by: UserSortField;
  label: string;
  sort: UserSort;
  onSort(by: UserSortField): void;
}) {
  const active = props.sort.by === props.by;
  const icon = !active ? (
    <DoubleCaretVertical />
  ) : props.sort.direction === "asc" ? (
    <CaretUp />
  ) : (
    <CaretDown />
  );
  return (
    <th scope="col" aria-sort={active ? ARIA_SORT[props.sort.direction] : "none"}>
      <Button
        variant="minimal"
        size="small"
        className="users-sort"
        endIcon={icon}
        text={props.label}
        aria-label={`${props.label}: sort ${active && props.sort.direction === "asc" ? "descending" : "ascending"}`}
        onClick={() => props.onSort(props.by)}
      />
    </th>
  );
}

/** The directory's dense table: a checkbox per row, the name opens the user, sortable columns. */
export function UserTable({
  users,
  sort,
  onSort,
  selected,
  allMatching,
  onSelect,
  onSelectPage,
  onOpen,
}: UserTableProps) {
  const pageSelected = users.length > 0 && users.every((u) => allMatching || selected.has(u.id));
  const someSelected = !pageSelected && users.some((u) => selected.has(u.id));
  return (
    <div className="users-table-scroll">
      <HTMLTable compact striped interactive className="users-table" aria-label="Users">
        <thead>
          <tr>
            <th scope="col" className="users-check">
              <Checkbox
                aria-label="Select every user on this page"
                checked={pageSelected}
                indeterminate={someSelected}
                disabled={allMatching}
                onChange={(e) => onSelectPage(e.currentTarget.checked)}
              />
            </th>
            <SortHeader by="name" label="Name" sort={sort} onSort={onSort} />
            <th scope="col">Email</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Access</th>
            <th scope="col">Verified</th>
            <th scope="col">Synced</th>
            <SortHeader by="createdAt" label="Created" sort={sort} onSort={onSort} />
            <SortHeader by="lastLoginAt" label="Last login" sort={sort} onSort={onSort} />
          </tr>
        </thead>
        <tbody>
          {users.map((u) => {
            const name = `${u.firstName} ${u.lastName}`.trim();
            const checked = allMatching || selected.has(u.id);
            return (
              <tr key={u.id} data-user-id={u.id} onClick={() => onOpen(u.id)}>
                {/* biome-ignore lint/a11y/useKeyWithClickEvents: the cell only stops the row's click; the checkbox is the control */}
                <td className="users-check" onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    aria-label={`Select ${name}`}
                    checked={checked}
                    disabled={allMatching}
                    onChange={(e) => onSelect(u.id, e.currentTarget.checked)}
                  />
                </td>
                <td className="users-name">
                  <Button
                    variant="minimal"
                    size="small"
                    className="users-open"
                    text={name || u.username}
                    aria-label={`${name || u.username}: open`}
                    onClick={(e) => {
                      e.stopPropagation();
                      onOpen(u.id);
                    }}
                  />
                  <CellText width="narrow" className={Classes.TEXT_MUTED}>
                    {`${u.username}${u.companyName ? ` · ${u.companyName}` : ""}`}
                  </CellText>
                </td>
                <td>
                  <CellText width="wide">{u.email}</CellText>
                </td>
                <td>{USER_TYPE_LABELS[u.userType]}</td>
                <td>
                  <Tag
                    minimal
                    intent={
                      u.userStatus === "active" ? "success" : u.userStatus === "archived" ? "none" : "warning"
                    }
                  >
                    {USER_STATUS_LABELS[u.userStatus as keyof typeof USER_STATUS_LABELS] ?? u.userStatus}
                  </Tag>
                </td>
                <td>
                  {ACCESS_LEVEL_LABELS[u.accessLevel as keyof typeof ACCESS_LEVEL_LABELS] ?? u.accessLevel}
                </td>
                <td>{u.emailVerified ? "Yes" : "No"}</td>
                <td>{u.esrtSynced ? "Yes" : "No"}</td>
                <td className="users-nowrap">{formatDate(u.createdAt)}</td>
                <td>
                  {u.lastLoginAt ? (
                    // the date and the time each on one line: the time goes under the date when narrow
                    <>
                      <span className="users-nowrap">{formatDate(u.lastLoginAt)}</span>{" "}
                      <span className="users-nowrap">{formatTime(u.lastLoginAt)}</span>
                    </>
                  ) : (
                    "Never"
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
