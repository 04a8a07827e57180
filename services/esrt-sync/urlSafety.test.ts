import { config, setConfig } from "@services/shared/config";
import { checkEndpointUrl, isPublicAddress, safeLookup } from "./urlSafety";

const before = config();
afterEach(() => setConfig(before));

function lookup(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    safeLookup(host, {}, (err, address) => (err ? reject(err) : resolve(String(address))));
  });
}

describe("webhook endpoint safety", () => {
  it("tells public unicast addresses from loopback, private, link-local, unique-local and mapped ones", () => {
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fc00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      "100.64.0.1",
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
  });

  it("refuses http and private addresses unless the settings allow them", () => {
    setConfig({ ...before, ESRT_ALLOW_HTTP: false, ESRT_ALLOW_PRIVATE: false });
    expect(() => checkEndpointUrl("http://pro.example.com/")).toThrow("The endpoint must use https");
    expect(() => checkEndpointUrl("https://192.168.0.10/")).toThrow(
      "may not point at a loopback or private address",
    );
    expect(checkEndpointUrl(" https://pro.example.com/hook ")).toBe("https://pro.example.com/hook");
    setConfig({ ...before, ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
    expect(checkEndpointUrl("http://127.0.0.1:4600/webhooks")).toBe("http://127.0.0.1:4600/webhooks");
  });

  it("refuses at connection time a name that resolves to a private address (DNS rebinding)", async () => {
    setConfig({ ...before, ESRT_ALLOW_PRIVATE: false });
    await expect(lookup("localhost")).rejects.toThrow("resolves to a loopback or private address");
    setConfig({ ...before, ESRT_ALLOW_PRIVATE: true });
    await expect(lookup("localhost")).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
