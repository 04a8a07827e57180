import { builder } from "./builder";

// The mutation root. Fields are added by the file of the type they return.
builder.mutationType({});
