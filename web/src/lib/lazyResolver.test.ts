import type { Resolver, ResolverOptions } from "react-hook-form";
import { lazyResolver } from "./lazyResolver";

type Form = { login: string };

const options: ResolverOptions<Form> = { fields: {}, shouldUseNativeValidation: false };

const accepting: Resolver<Form> = async (values) => ({ values, errors: {} });

describe("lazyResolver", () => {
  it("loads the real resolver once, on preload or first use, and validates with it", async () => {
    const load = jest.fn(async () => accepting);
    const lazy = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    await lazy.preload();
    await expect(lazy.resolver({ login: "ada" }, undefined, options)).resolves.toEqual({
      values: { login: "ada" },
      errors: {},
    });
    await lazy.resolver({ login: "grace" }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("tries a failed download again on the next use", async () => {
    const load = jest
      .fn<Promise<Resolver<Form>>, []>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockResolvedValue(accepting);
    const lazy = lazyResolver(load);
    await expect(lazy.resolver({ login: "ada" }, undefined, options)).rejects.toThrow(/Failed to fetch/);
    await expect(lazy.resolver({ login: "ada" }, undefined, options)).resolves.toEqual({
      values: { login: "ada" },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
