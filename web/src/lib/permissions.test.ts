import { fetchPermissionCheck, notAdmin, permissionCheckPath } from "./permissions";

function answer(status: number, statusText: string, body = ""): typeof fetch {
  return jest.fn(async () => new Response(body === "" ? null : body, { status, statusText }));
}

describe("the permission check (spec §7)", () => {
  let errorLog: jest.SpyInstance;
  let warnLog: jest.SpyInstance;
  beforeEach(() => {
    errorLog = jest.spyOn(console, "error").mockImplementation(() => undefined);
    warnLog = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("repeats the permissions parameter once per permission and omits it when there is none", () => {
    expect(permissionCheckPath([])).toBe("/api/auth/check-permissions");
    expect(permissionCheckPath(["read:all_documents", "approve:documents"])).toBe(
      "/api/auth/check-permissions?permissions=read%3Aall_documents&permissions=approve%3Adocuments",
    );
  });

  it("reads a 401 as not admin with 'Unauthorized - Please log in'", async () => {
    await expect(fetchPermissionCheck(["manage:users"], answer(401, "Unauthorized"))).resolves.toEqual(
      notAdmin("Unauthorized - Please log in"),
    );
    expect(warnLog).toHaveBeenCalled();
  });

  it("reads the body of a refused or failed check, so the browser finishes the request", async () => {
    for (const status of [401, 500]) {
      const res = new Response("Not signed in", { status });
      await fetchPermissionCheck(
        ["manage:users"],
        jest.fn(async () => res),
      );
      expect(res.bodyUsed).toBe(true);
    }
  });

  it("reads another failure as not admin with the status text, and logs it", async () => {
    await expect(
      fetchPermissionCheck(["manage:users"], answer(500, "Internal Server Error")),
    ).resolves.toEqual({
      isAdmin: false,
      hasPermissions: false,
      exactPermissions: [],
      message: "Failed to check permissions: Internal Server Error",
    });
    expect(errorLog).toHaveBeenCalledWith("Failed to check permissions: Internal Server Error");
  });

  it("returns the server's answer and sends the cookie", async () => {
    const body = { isAdmin: true, hasPermissions: false, exactPermissions: ["manage:users"], message: "m" };
    const fetchImpl = answer(200, "OK", JSON.stringify(body));
    await expect(fetchPermissionCheck(["manage:config"], fetchImpl)).resolves.toEqual(body);
    expect(fetchImpl).toHaveBeenCalledWith("/api/auth/check-permissions?permissions=manage%3Aconfig", {
      credentials: "include",
      headers: { Accept: "application/json" },
    });
  });
});
