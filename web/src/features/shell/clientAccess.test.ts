import { USER_TYPES } from "@schema/validation/user";
import { isClientUserType } from "./clientAccess";

describe("who may open client-only pages (DECISIONS, Who counts as a client)", () => {
  it("admits clients and both admin kinds, and sends prospects and plain users away", () => {
    expect(USER_TYPES.filter(isClientUserType)).toEqual(["client", "mainAdmin", "userAdmin"]);
  });
});
