import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { config } from "@services/shared/config";
import ipaddr from "ipaddr.js";

// Which network addresses the portal may connect to on an administrator's word (issue 10's webhook
// rule, shared since issue 20 with the SMTP and storage "Test connection"): public unicast only, so
// that a form cannot make the portal reach the machine itself, its private network or a cloud
// metadata service (SSRF). The address judged is the one connected to (the lookup below), so a
// name that resolves inside (DNS rebinding included) is refused too. Development and tests lift
// the rule with a switch of the configuration.

/** The IPv6 global unicast block (RFC 4291 §2.4): everything outside it is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Whether an address is public unicast. IPv4: not loopback, private, link-local (169.254/16, the
 * metadata service), carrier-grade NAT, unspecified, broadcast, multicast, documentation or
 * otherwise reserved (ipaddr.js's ranges). IPv6: global unicast (2000::/3) outside the special
 * blocks ipaddr.js names (6to4, Teredo, NAT64, documentation, benchmarking, ORCHID...), so
 * IPv4-compatible (::7f00:1), unique-local, link-local and site-local forms are refused; an
 * IPv4-mapped address (::ffff:a.b.c.d) is judged as its IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  const text = canonicalV6(address);
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === "unicast";
}

/**
 * An IPv6 address in its canonical text (RFC 5952, by the URL parser): ipaddr.js reads a dotted
 * tail after "::" as IPv4-mapped, so "::8.8.8.8" (IPv4-compatible, ::808:808) and "::ffff:8.8.8.8"
 * would look alike; the canonical text keeps them apart. Anything else is answered as given.
 */
function canonicalV6(address: string): string {
  if (!address.includes(":")) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** Whether a host name names the machine itself by convention (RFC 6761). */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Whether a switch of the configuration lets connections reach loopback and private addresses:
 * its value when set, else only under NODE_ENV=development (so `make start` reaches local servers
 * and production keeps the rule).
 */
export function privateAddressesAllowed(setting: boolean | undefined): boolean {
  return setting ?? config().NODE_ENV === "development";
}

/** Raised for a host that names or resolves to a refused address only. */
export class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`${host} resolves to a loopback or private address`);
    this.name = "PrivateAddressError";
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup-shaped function (for http.Agent, net.connect), as Node calls it. */
export type GuardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A dns.lookup for connections that answers only public addresses, unless `allowPrivate()` says
 * otherwise at the time of the lookup; a name with none fails with {@link PrivateAddressError}.
 */
export function guardedLookup(allowPrivate: () => boolean): GuardedLookup {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const allowed = allowPrivate() ? list : list.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) return callback(new PrivateAddressError(hostname), []);
      if (options.all) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The address to connect to for a host (a name or a literal address, brackets allowed): the first
 * one the lookup answers that the rule allows.
 * @throws PrivateAddressError when the host names or resolves to refused addresses only; the
 * lookup's error (ENOTFOUND...) when it does not resolve.
 */
export function resolveAllowedAddress(host: string, allowPrivate: boolean): Promise<LookupAddress> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isLocalhostName(bare)) return Promise.reject(new PrivateAddressError(host));
  const lookup = guardedLookup(() => allowPrivate);
  return new Promise((resolve, reject) => {
    lookup(bare, {}, (err, address, family) => {
      if (err) reject(err);
      else resolve({ address: String(address), family: family ?? 4 });
    });
  });
}
