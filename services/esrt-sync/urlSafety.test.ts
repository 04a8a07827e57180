import { config, setConfig } from "@services/shared/config";
import { checkEndpointUrl, safeLookup } from "./urlSafety";

const before = config();
afterEach(() => setConfig(before));

function lookup(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    safeLookup(host, {}, (err, address) => (err ? reject(err) : resolve(String(address))));
  });
}

describe("webhook endpoint safety", () => {
  it("refuses http and private addresses unless the settings allow them", () => {
    setConfig({ ...before, ESRT_ALLOW_HTTP: false, ESRT_ALLOW_PRIVATE: false });
    expect(() => checkEndpointUrl("http://pro.example.com/")).toThrow("The endpoint must use https");
    expect(() => checkEndpointUrl("https://192.168.0.10/")).toThrow(
      "may not point at a loopback or private address",
    );
    expect(checkEndpointUrl(" https://pro.example.com/hook ")).toBe("https://pro.example.com/hook");
    expect(checkEndpointUrl("https://[2606:2800:220:1:248:1893:25c8:1946]/")).toBe(
      "https://[2606:2800:220:1:248:1893:25c8:1946]/",
    );
    // IPv6 forms that reach an internal IPv4 address, or are not global unicast (issue 20), and
    // IPv4 spellings the URL parser turns into loopback
    for (const url of [
      "https://[::7f00:1]/",
      "https://[::127.0.0.1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:a9fe:a9fe]/latest/meta-data",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[2002:7f00:1::1]/",
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[2001:db8::1]/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://169.254.169.254/",
      "https://localhost./",
    ]) {
      expect(() => checkEndpointUrl(url)).toThrow(
        "The endpoint may not point at a loopback or private address",
      );
    }
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
