import { AppError, appErrorCodes } from "@services/shared/errors";
import { builder } from "./builder";

// Expected failures as typed results: a field lists `errors: { types: [AppError] }` and its clients
// receive { __typename: "AppError", code, message } instead of a top-level error.

export const AppErrorCodeEnum = builder.enumType("AppErrorCode", { values: appErrorCodes });

builder.objectType(AppError, {
  name: "AppError",
  fields: (t) => ({
    code: t.field({ type: AppErrorCodeEnum, resolve: (err) => err.code }),
    message: t.exposeString("message"),
  }),
});
