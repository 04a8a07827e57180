import { Checkbox, FormGroup, HTMLSelect, InputGroup, Intent } from "@blueprintjs/core";
import type { UserDirectoryFacetsQuery } from "@web/generated/graphql";
import { FilterBar } from "@web/ui/FilterFields";
import { ClearFiltersButton } from "@web/ui/ToolbarButtons";
import { useId } from "react";
import {
  ACCESS_LEVEL_LABELS,
  ACCESS_LEVEL_VALUES,
  type DirectoryState,
  formatCount,
  isFiltered,
  rangeProblem,
  toggled,
  USER_STATUS_LABELS,
  USER_STATUS_VALUES,
  USER_TYPE_LABELS,
  USER_TYPE_VALUES,
  type YesNo,
} from "./directory";

type Facets = Extract<
  NonNullable<UserDirectoryFacetsQuery["userDirectoryFacets"]>,
  { __typename: "QueryUserDirectoryFacetsSuccess" }
>["data"];

/** Props of the directory's filter controls. */
export interface DirectoryFiltersProps {
  state: DirectoryState;
  /** the counts for the current filter (absent while loading or after an error) */
  facets: Facets | undefined;
  onChange(next: Partial<DirectoryState>): void;
  onClear(): void;
}

const countOf = (list: readonly { value: string; count: number }[] | undefined, value: string) => {
  const found = list?.find((c) => c.value === value);
  return found === undefined ? "" : ` (${formatCount(found.count)})`;
};

/**
 * The filters beside the user table: type, status and access level as checkboxes, verified and
 * synced as yes/no choices, and the created and last-login ranges; each choice shows how many of
 * the users matching the current filter have that value.
 */
export function DirectoryFilters({ state, facets, onChange, onClear }: DirectoryFiltersProps) {
  const ids = {
    verified: useId(),
    synced: useId(),
    createdFrom: useId(),
    createdTo: useId(),
    loginFrom: useId(),
    loginTo: useId(),
  };
  const problem = rangeProblem(state);
  const yesNo = (counts: { yes: number; no: number } | undefined) => [
    { value: "", label: "Any" },
    { value: "yes", label: `Yes${counts ? ` (${formatCount(counts.yes)})` : ""}` },
    { value: "no", label: `No${counts ? ` (${formatCount(counts.no)})` : ""}` },
  ];
  return (
    <FilterBar className="users-filters" label="Filter users">
      <fieldset>
        <legend>Type</legend>
        {USER_TYPE_VALUES.map((t) => (
          <Checkbox
            key={t}
            label={`${USER_TYPE_LABELS[t]}${countOf(facets?.userTypes, t)}`}
            checked={state.types.includes(t)}
            onChange={(e) => onChange({ types: toggled(state.types, t, e.currentTarget.checked) })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Status</legend>
        {USER_STATUS_VALUES.map((s) => (
          <Checkbox
            key={s}
            label={`${USER_STATUS_LABELS[s]}${countOf(facets?.userStatuses, s)}`}
            checked={state.statuses.includes(s)}
            onChange={(e) => onChange({ statuses: toggled(state.statuses, s, e.currentTarget.checked) })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Access level</legend>
        {ACCESS_LEVEL_VALUES.map((a) => (
          <Checkbox
            key={a}
            label={`${ACCESS_LEVEL_LABELS[a]}${countOf(facets?.accessLevels, a)}`}
            checked={state.access.includes(a)}
            onChange={(e) => onChange({ access: toggled(state.access, a, e.currentTarget.checked) })}
          />
        ))}
      </fieldset>
      <FormGroup label="Email verified" labelFor={ids.verified}>
        <HTMLSelect
          id={ids.verified}
          fill
          value={state.verified}
          options={yesNo(facets?.emailVerified)}
          onChange={(e) => onChange({ verified: e.currentTarget.value as YesNo })}
        />
      </FormGroup>
      <FormGroup label="Synced to the Pro app" labelFor={ids.synced}>
        <HTMLSelect
          id={ids.synced}
          fill
          value={state.synced}
          options={yesNo(facets?.esrtSynced)}
          onChange={(e) => onChange({ synced: e.currentTarget.value as YesNo })}
        />
      </FormGroup>
      <fieldset>
        <legend>Created</legend>
        <FormGroup label="From" labelFor={ids.createdFrom}>
          <InputGroup
            id={ids.createdFrom}
            type="date"
            value={state.createdFrom}
            onChange={(e) => onChange({ createdFrom: e.currentTarget.value })}
          />
        </FormGroup>
        <FormGroup
          label="To"
          labelFor={ids.createdTo}
          intent={problem?.field === "createdTo" ? Intent.DANGER : Intent.NONE}
          helperText={problem?.field === "createdTo" ? problem.message : undefined}
        >
          <InputGroup
            id={ids.createdTo}
            type="date"
            value={state.createdTo}
            intent={problem?.field === "createdTo" ? Intent.DANGER : Intent.NONE}
            onChange={(e) => onChange({ createdTo: e.currentTarget.value })}
          />
        </FormGroup>
      </fieldset>
      <fieldset>
        <legend>Last login</legend>
        <FormGroup label="From" labelFor={ids.loginFrom}>
          <InputGroup
            id={ids.loginFrom}
            type="date"
            value={state.loginFrom}
            onChange={(e) => onChange({ loginFrom: e.currentTarget.value })}
          />
        </FormGroup>
        <FormGroup
          label="To"
          labelFor={ids.loginTo}
          intent={problem?.field === "loginTo" ? Intent.DANGER : Intent.NONE}
          helperText={problem?.field === "loginTo" ? problem.message : undefined}
        >
          <InputGroup
            id={ids.loginTo}
            type="date"
            value={state.loginTo}
            intent={problem?.field === "loginTo" ? Intent.DANGER : Intent.NONE}
            onChange={(e) => onChange({ loginTo: e.currentTarget.value })}
          />
        </FormGroup>
      </fieldset>
      <ClearFiltersButton disabled={!isFiltered(state)} onClick={onClear} />
    </FilterBar>
  );
}
