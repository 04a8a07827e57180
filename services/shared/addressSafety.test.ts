import * as safety from "./addressSafety";

// The address rule of every connection an administrator's form can aim (webhooks, SMTP and storage
// "Test connection"): public unicast only (issue 20: the IPv6 forms that carry or reach an
// internal IPv4 address, or are not global unicast, are refused).

describe("isPublicAddress", () => {
  it("accepts public IPv4 and global unicast IPv6", () => {
    for (const a of [
      "93.184.216.34",
      "8.8.8.8",
      "2606:2800:220:1:248:1893:25c8:1946",
      "2a00:1450:4001:82b::200e",
      // an IPv4-mapped public address is its IPv4 address
      "::ffff:93.184.216.34",
    ]) {
      expect([a, safety.isPublicAddress(a)]).toEqual([a, true]);
    }
  });

  it.each([
    // IPv4: loopback, private, link-local (metadata), carrier-grade NAT, unspecified, broadcast,
    // multicast, documentation and benchmarking ranges, reserved
    ["127.0.0.1"],
    ["127.255.255.254"],
    ["10.1.2.3"],
    ["172.16.0.1"],
    ["192.168.1.1"],
    ["169.254.169.254"],
    ["100.64.0.1"],
    ["0.0.0.0"],
    ["255.255.255.255"],
    ["224.0.0.1"],
    ["192.0.2.1"],
    ["198.51.100.7"],
    ["203.0.113.9"],
    ["198.18.0.1"],
    ["240.0.0.1"],
    // IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast
    ["::1"],
    ["::"],
    ["fe80::1"],
    ["fc00::1"],
    ["fd12:3456:789a::1"],
    ["fec0::1"],
    ["ff02::1"],
    // IPv4-mapped internal addresses (judged as their IPv4 address)
    ["::ffff:127.0.0.1"],
    ["::ffff:7f00:1"],
    ["::ffff:169.254.169.254"],
    ["::ffff:10.0.0.1"],
    // IPv4-compatible (deprecated) forms: ::127.0.0.1 and its hex spelling
    ["::7f00:1"],
    ["::127.0.0.1"],
    ["::a9fe:a9fe"],
    ["::8.8.8.8"],
    // IPv4-translated (RFC 6145), NAT64 (RFC 6052, RFC 8215)
    ["::ffff:0:7f00:1"],
    ["64:ff9b::7f00:1"],
    ["64:ff9b::8.8.8.8"],
    ["64:ff9b:1::a00:1"],
    // 6to4 and Teredo (tunnels that carry an IPv4 address)
    ["2002:7f00:1::1"],
    ["2002:a9fe:a9fe::1"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    // documentation, benchmarking, ORCHID, discard-only, outside 2000::/3
    ["2001:db8::1"],
    ["3fff::1"],
    ["2001:2::1"],
    ["2001:20::1"],
    ["100::1"],
    ["4000::1"],
    // not an address
    ["localhost"],
    ["example.com"],
  ])("refuses %s", (address) => {
    expect(safety.isPublicAddress(address)).toBe(false);
  });
});

describe("resolveAllowedAddress", () => {
  it("refuses a host that names or resolves to internal addresses only, unless allowed", async () => {
    for (const host of ["localhost", "app.localhost", "127.0.0.1", "[::1]", "::7f00:1", "2130706433"]) {
      await expect(safety.resolveAllowedAddress(host, false)).rejects.toBeInstanceOf(
        safety.PrivateAddressError,
      );
    }
    await expect(safety.resolveAllowedAddress("127.0.0.1", true)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(safety.resolveAllowedAddress("8.8.8.8", false)).resolves.toEqual({
      address: "8.8.8.8",
      family: 4,
    });
  });

  it("names localhost and its subdomains", () => {
    expect(safety.isLocalhostName("LocalHost.")).toBe(true);
    expect(safety.isLocalhostName("api.localhost")).toBe(true);
    expect(safety.isLocalhostName("localhost.example.com")).toBe(false);
  });
});
