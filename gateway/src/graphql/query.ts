import { builder } from "./builder";

// The root types. Fields are added by the file of the type they return.
builder.queryType({});
