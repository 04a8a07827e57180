import {
  DateTimeResolver,
  EmailAddressResolver,
  JSONResolver,
  SafeIntResolver,
  URLResolver,
} from "graphql-scalars";
import { builder } from "./builder";

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);
builder.addScalarType("EmailAddress", EmailAddressResolver);
builder.addScalarType("URL", URLResolver);
/** Whole numbers up to 2^53 - 1: byte sizes, which pass GraphQL's 32-bit Int (files up to 5 GiB). */
// Prisma reads bigint columns as bigint: those are turned into numbers first.
builder.addScalarType("SafeInt", SafeIntResolver, {
  serialize: (value) => SafeIntResolver.serialize(typeof value === "bigint" ? Number(value) : value),
});
