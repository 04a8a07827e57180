import type { ObjectRef } from "@pothos/core";
import type { Db } from "@services/shared/db";
import { builder, type Types } from "./builder";

type AuthScopes = Partial<Types["AuthScopes"]>;

/**
 * Defines the argument-free root query `name`: what `read` finds in the caller's database, as
 * `type` (or a list of it when `type` is `[ref]`), to the callers `authScopes` lets in.
 * `read`'s rejections propagate as the field's error.
 */
export function dbQuery<Shape>(
  name: string,
  options: {
    type: ObjectRef<Types, Shape>;
    description: string;
    authScopes: AuthScopes;
    read: (db: Db) => Promise<Shape>;
  },
): void;
export function dbQuery<Shape>(
  name: string,
  options: {
    type: [ObjectRef<Types, Shape>];
    description: string;
    authScopes: AuthScopes;
    read: (db: Db) => Promise<Shape[]>;
  },
): void;
export function dbQuery<Shape>(
  name: string,
  options: {
    type: ObjectRef<Types, Shape> | [ObjectRef<Types, Shape>];
    description: string;
    authScopes: AuthScopes;
    read: (db: Db) => Promise<Shape | Shape[]>;
  },
): void {
  const { type, description, authScopes, read } = options;
  // The overloads tie `read` to `type`; inside, the shape is opaque to Pothos.
  const resolve = (_root: unknown, _args: unknown, ctx: { db: Db }) => read(ctx.db);
  const resolveList = (_root: unknown, _args: unknown, ctx: { db: Db }) => read(ctx.db) as Promise<unknown[]>;
  builder.queryField(name, (t) =>
    Array.isArray(type)
      ? t.field({
          type: type as [ObjectRef<Types, unknown>],
          description,
          authScopes,
          resolve: resolveList,
        })
      : t.field({ type: type as ObjectRef<Types, unknown>, description, authScopes, resolve }),
  );
}
