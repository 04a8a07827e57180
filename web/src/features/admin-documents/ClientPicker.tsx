import { useQuery } from "@apollo/client/react";
import { FormGroup, HTMLSelect, InputGroup, Intent } from "@blueprintjs/core";
import { Search } from "@blueprintjs/icons";
import { clientLabel } from "@web/features/documents/documents";
import { DocumentClientsDocument, type DocumentClientsQuery } from "@web/generated/graphql";
import { useDebounced } from "@web/ui/hooks";
import { useId, useState } from "react";

/** A client the picker lists. */
export type PickedClient = DocumentClientsQuery["documentClients"][number];

/** Props of the client picker. */
export interface ClientPickerProps {
  value: PickedClient | null;
  onChange(client: PickedClient | null): void;
  /** the select's label */
  label: string;
  /** what the empty choice reads: "Any client" in a filter, "Choose a client" in a form */
  emptyText: string;
  /** an error to show under the select */
  error?: string | null;
  inline?: boolean;
  autoFocus?: boolean;
}

/** How many clients the picker lists for one search. */
const PICKER_SIZE = 20;

/**
 * Finds a client by name, email, company or username (the server's documentClients search) and
 * picks one from the matches: a search box and a select, each with its own label.
 */
export function ClientPicker({
  value,
  onChange,
  label,
  emptyText,
  error,
  inline,
  autoFocus,
}: ClientPickerProps) {
  const ids = { search: useId(), select: useId() };
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim());
  const { data, loading } = useQuery(DocumentClientsDocument, {
    variables: { search: query || undefined, first: PICKER_SIZE },
    fetchPolicy: "cache-and-network",
  });
  const found = data?.documentClients ?? [];
  const options = value && !found.some((c) => c.id === value.id) ? [value, ...found] : found;
  return (
    <>
      <FormGroup label={`Find ${label.toLowerCase()}`} labelFor={ids.search} inline={inline}>
        <InputGroup
          id={ids.search}
          type="search"
          leftIcon={<Search />}
          placeholder="Name, email or company"
          value={search}
          autoFocus={autoFocus}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      </FormGroup>
      <FormGroup
        label={label}
        labelFor={ids.select}
        inline={inline}
        intent={error ? Intent.DANGER : Intent.NONE}
        helperText={error ?? (query && !loading && found.length === 0 ? "No client matches" : undefined)}
      >
        <HTMLSelect
          id={ids.select}
          value={value ? String(value.id) : ""}
          onChange={(e) => {
            const id = Number(e.currentTarget.value);
            onChange(options.find((c) => c.id === id) ?? null);
          }}
          options={[
            { value: "", label: emptyText },
            ...options.map((c) => ({ value: String(c.id), label: clientLabel(c) })),
          ]}
        />
      </FormGroup>
    </>
  );
}
