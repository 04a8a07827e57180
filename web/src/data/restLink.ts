import { ApolloLink, type TypedDocumentNode } from "@apollo/client";
import type { DocumentNode, FieldNode, OperationDefinitionNode } from "graphql";
import { Observable } from "rxjs";

// The REST calls of the spec (spec §7) served as GraphQL operations, so their answers live in Apollo
// Client's one cache beside the GraphQL ones. An operation whose root field carries `@rest` never goes
// to /graphql: this link runs the field's handler (a fetch of the REST endpoint, web/src/data/api.ts)
// and answers `{ data: { field: value } }`, which Apollo writes to the cache and hands to every hook
// that reads the field. A field without a selection set is kept as the endpoint's JSON; one with a
// selection set (the branding) is normalised like any GraphQL object, so a GraphQL save of the same
// object shows wherever the REST answer is read.

/** What serves one `@rest` field: the request and how many times a failure is tried again. */
export interface RestHandler {
  run(variables: Record<string, unknown>): Promise<unknown>;
  /** tries after a failure; the spec's default is 0 */
  retry?: number;
}

/** The link's handlers by root field name. */
export type RestHandlers = Record<string, RestHandler>;

/** Delay before try `attempt + 1`: 1 s, 2 s, 4 s... at most 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

const fetchedAt = new Map<string, number>();

/** The key of a field's answer for its variables (what the stale times are counted against). */
export function restKey(field: string, variables: Record<string, unknown> = {}): string {
  return `${field}:${JSON.stringify(variables)}`;
}

/** Epoch ms at which the answer of `key` was last received or written; 0 when never. */
export function restFetchedAt(key: string): number {
  return fetchedAt.get(key) ?? 0;
}

/** Marks the answer of `key` as received now (after a fetch, or a write to the cache). */
export function markRestFetched(key: string, at: number = Date.now()): void {
  fetchedAt.set(key, at);
}

/** The root field carrying `@rest` in `document`, if any. */
export function restFieldOf(document: DocumentNode): FieldNode | undefined {
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === "OperationDefinition",
  );
  return operation?.selectionSet.selections.find(
    (selection): selection is FieldNode =>
      selection.kind === "Field" && (selection.directives ?? []).some((d) => d.name.value === "rest"),
  );
}

async function runWithRetry(
  handler: RestHandler,
  variables: Record<string, unknown>,
  delay: (attempt: number) => number,
): Promise<unknown> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await handler.run(variables);
    } catch (error) {
      if (tries >= (handler.retry ?? 0)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay(tries)));
    }
  }
}

/**
 * Makes the link that answers `@rest` operations with `handlers` and passes every other operation on.
 * A handler's failure (the spec's "<status>: <body>" Error) is the operation's error, unchanged.
 */
export function createRestLink(
  handlers: RestHandlers,
  delay: (attempt: number) => number = retryDelay,
): ApolloLink {
  return new ApolloLink((operation, forward) => {
    const field = restFieldOf(operation.query);
    if (!field) return forward(operation);
    const name = field.name.value;
    const handler = handlers[name];
    const variables = (operation.variables ?? {}) as Record<string, unknown>;
    return new Observable((observer) => {
      let live = true;
      if (!handler) {
        observer.error(new Error(`No REST handler for ${name}`));
        return;
      }
      runWithRetry(handler, variables, delay).then(
        (value) => {
          if (!live) return;
          markRestFetched(restKey(name, variables));
          observer.next({ data: { [field.alias?.value ?? name]: value } });
          observer.complete();
        },
        (error: unknown) => {
          if (live) observer.error(error);
        },
      );
      return () => {
        live = false;
      };
    });
  });
}

const name = (value: string) => ({ kind: "Name", value }) as const;

/**
 * A typed document of one `@rest` root field `field`, taking `variables` (each passed to the field as
 * the argument of the same name) and, for an object to normalise, selecting `selections`. Built as an
 * AST, so no GraphQL parser ships for it.
 */
export function restDocument<TData, TVariables extends Record<string, unknown> = Record<string, never>>(
  operation: "query" | "mutation",
  field: string,
  variables: readonly string[] = [],
  selections?: readonly string[],
): TypedDocumentNode<TData, TVariables> {
  const document = {
    kind: "Document",
    definitions: [
      {
        kind: "OperationDefinition",
        operation,
        name: name(`Rest_${field}`),
        variableDefinitions: variables.map((variable) => ({
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: name(variable) },
          type: { kind: "NamedType", name: name("JSON") },
        })),
        selectionSet: {
          kind: "SelectionSet",
          selections: [
            {
              kind: "Field",
              name: name(field),
              arguments: variables.map((variable) => ({
                kind: "Argument",
                name: name(variable),
                value: { kind: "Variable", name: name(variable) },
              })),
              directives: [{ kind: "Directive", name: name("rest"), arguments: [] }],
              selectionSet: selections
                ? {
                    kind: "SelectionSet",
                    selections: selections.map((selection) => ({ kind: "Field", name: name(selection) })),
                  }
                : undefined,
            },
          ],
        },
      },
    ],
  };
  return document as unknown as TypedDocumentNode<TData, TVariables>;
}
