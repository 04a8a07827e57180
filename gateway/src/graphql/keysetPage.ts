import type { ObjectFieldsShape, ObjectRef } from "@pothos/core";
import { builder, type Types } from "./builder";

/** One page of a keyset-paged list as the services return it. */
export interface KeysetPage<Node> {
  nodes: Node[];
  /** pass as `after` for the next page; null on the last */
  endCursor: string | null;
  hasNextPage: boolean;
}

/**
 * The GraphQL type of a keyset page (the one helper every paged list uses): `nodes`, `endCursor`,
 * `hasNextPage`, and `totalCount` when the page counts its matches, plus any fields of its own.
 */
export function keysetPage<Node, Shape extends KeysetPage<Node>>(
  name: string,
  options: {
    node: ObjectRef<Types, Node>;
    description: string;
    /** the page carries totalCount (a description of what it counts, or true) */
    totalCount?: string | true;
    /** the page's own fields beside these */
    fields?: ObjectFieldsShape<Types, Shape>;
  },
): ObjectRef<Types, Shape> {
  const { node, totalCount } = options;
  return builder.objectRef<Shape>(name).implement({
    description: options.description,
    fields: (t) => ({
      nodes: t.field({ type: [node], resolve: (p) => p.nodes }),
      endCursor: t.string({ nullable: true, resolve: (p) => p.endCursor }),
      hasNextPage: t.boolean({ resolve: (p) => p.hasNextPage }),
      ...(totalCount === undefined
        ? {}
        : {
            totalCount: t.int({
              description: typeof totalCount === "string" ? totalCount : undefined,
              resolve: (p) => (p as Shape & { totalCount: number }).totalCount,
            }),
          }),
      ...options.fields?.(t),
    }),
  });
}
