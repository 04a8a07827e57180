import { FormGroup, HTMLSelect, type HTMLSelectProps, InputGroup } from "@blueprintjs/core";
import { Search } from "@blueprintjs/icons";
import type { ReactNode } from "react";

/** Props of {@link SelectField}. */
export interface SelectFieldProps {
  label: string;
  id: string;
  value: string;
  options: HTMLSelectProps["options"];
  /** label and select on one line (a filter bar) */
  inline?: boolean;
  onChange(value: string): void;
}

/** A labelled drop-down of a filter bar or a form. */
export function SelectField({ label, id, value, options, inline, onChange }: SelectFieldProps) {
  return (
    <FormGroup label={label} labelFor={id} inline={inline}>
      <HTMLSelect id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)} options={options} />
    </FormGroup>
  );
}

/** Props of {@link SearchField}. */
export interface SearchFieldProps {
  label: string;
  id: string;
  value: string;
  placeholder?: string;
  /** the magnifier inside the field */
  icon?: boolean;
  inline?: boolean;
  onChange(value: string): void;
}

/** A labelled search box of a filter bar. */
export function SearchField({ label, id, value, placeholder, icon, inline, onChange }: SearchFieldProps) {
  return (
    <FormGroup label={label} labelFor={id} inline={inline}>
      <InputGroup
        id={id}
        type="search"
        leftIcon={icon ? <Search /> : undefined}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </FormGroup>
  );
}

/** Props of {@link FilterBar}. */
export interface FilterBarProps {
  className: string;
  /** the form's accessible name: "Filter documents" */
  label: string;
  children: ReactNode;
}

/** The filters above a list: a form that filters as it is typed in, and never submits. */
export function FilterBar({ className, label, children }: FilterBarProps) {
  return (
    <form className={className} aria-label={label} onSubmit={(e) => e.preventDefault()}>
      {children}
    </form>
  );
}
