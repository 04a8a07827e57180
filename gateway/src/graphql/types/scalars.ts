import { DateTimeResolver, EmailAddressResolver, JSONResolver, URLResolver } from "graphql-scalars";
import { builder } from "../builder";

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);
builder.addScalarType("EmailAddress", EmailAddressResolver);
builder.addScalarType("URL", URLResolver);
