import { FormGroup, InputGroup, Intent } from "@blueprintjs/core";

/** Props of {@link DateRangeFields}. */
export interface DateRangeFieldsProps {
  /** the inputs' ids */
  ids: { from: string; to: string };
  /** the dates, as `yyyy-mm-dd` (empty: open) */
  from: string;
  to: string;
  /** what is wrong with the range, shown under "To" */
  problem?: string | null;
  /** label and input on one line (a filter bar) */
  inline?: boolean;
  onChange(key: "from" | "to", value: string): void;
}

/** The "From" and "To" date inputs of a log's filter bar. */
export function DateRangeFields({ ids, from, to, problem, inline, onChange }: DateRangeFieldsProps) {
  const intent = problem ? Intent.DANGER : Intent.NONE;
  return (
    <>
      <FormGroup label="From" labelFor={ids.from} inline={inline}>
        <InputGroup
          id={ids.from}
          type="date"
          value={from}
          onChange={(e) => onChange("from", e.currentTarget.value)}
        />
      </FormGroup>
      <FormGroup label="To" labelFor={ids.to} inline={inline} intent={intent} helperText={problem}>
        <InputGroup
          id={ids.to}
          type="date"
          value={to}
          intent={intent}
          onChange={(e) => onChange("to", e.currentTarget.value)}
        />
      </FormGroup>
    </>
  );
}
