import { useQuery } from "@apollo/client/react";
import { UserDirectoryDocument } from "@web/generated/graphql";
import { useDebounced } from "@web/ui/hooks";
import { MIN_USER_QUERY, type PaletteUser, USER_RESULTS } from "./paletteItems";

/** How long typing must pause before the directory is asked. */
const SEARCH_PAUSE_MS = 250;

/** The users the palette found for what was typed. */
export interface PaletteUserSearch {
  users: PaletteUser[];
  /** the directory's answer to what is typed now is still to come */
  searching: boolean;
  /** why the search failed, when it did */
  problem: string | null;
}

/**
 * Finds users for the palette with the user directory's own search (the UserDirectory query of User
 * Management: part of a name, email, username, company, phone or unique id, on the server), once
 * typing pauses and `query` has {@link MIN_USER_QUERY} characters, the first {@link USER_RESULTS}.
 * Nothing is asked while `enabled` is false (no manage:users).
 */
export function usePaletteUsers(query: string, enabled: boolean): PaletteUserSearch {
  const typed = query.trim();
  const settled = useDebounced(typed, SEARCH_PAUSE_MS);
  const asks = enabled && settled.length >= MIN_USER_QUERY;
  const { data, error, loading } = useQuery(UserDirectoryDocument, {
    variables: { filter: { q: settled }, first: USER_RESULTS },
    skip: !asks,
    fetchPolicy: "cache-and-network",
  });
  if (!enabled || typed.length < MIN_USER_QUERY) return { users: [], searching: false, problem: null };
  const answer = data?.userDirectory;
  const current = typed === settled;
  const searching = !current || (loading && !answer && !error);
  if (!current) return { users: [], searching, problem: null };
  if (error) return { users: [], searching: false, problem: error.message };
  if (answer?.__typename === "AppError") return { users: [], searching: false, problem: answer.message };
  const nodes = answer?.__typename === "QueryUserDirectorySuccess" ? answer.data.nodes : [];
  return {
    users: nodes.map((u) => ({
      kind: "user",
      key: `user-${u.id}`,
      id: u.id,
      name: `${u.firstName} ${u.lastName}`.trim(),
      email: u.email,
      uniqueId: u.uniqueId,
    })),
    searching,
    problem: null,
  };
}
