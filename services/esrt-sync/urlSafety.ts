import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { config } from "@services/shared/config";
import { AppError } from "@services/shared/errors";
import ipaddr from "ipaddr.js";

// What a webhook endpoint may be (issue 10, Safety): https, and not an address inside the machine or
// its private network (SSRF), unless settings allow it for development and tests. The address rule
// is checked when an endpoint is saved and again on every connection (the lookup below), so a name
// that later resolves to a private address (DNS rebinding) is refused too.

/** Whether http URLs are allowed: ESRT_ALLOW_HTTP, or development when it is unset. */
export function httpAllowed(): boolean {
  const cfg = config();
  return cfg.ESRT_ALLOW_HTTP ?? cfg.NODE_ENV === "development";
}

/** Whether loopback and private addresses are allowed: ESRT_ALLOW_PRIVATE, or development when unset. */
export function privateAllowed(): boolean {
  const cfg = config();
  return cfg.ESRT_ALLOW_PRIVATE ?? cfg.NODE_ENV === "development";
}

/** Whether an address is public unicast (not loopback, private, link-local, unique-local, reserved...). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === "unicast";
}

export const ENDPOINT_URL_MESSAGES = {
  invalid: "Please enter a valid URL",
  https: "The endpoint must use https",
  private: "The endpoint may not point at a loopback or private address",
  credentials: "The URL may not carry a user name or password",
} as const;

/**
 * Checks an endpoint URL against the rules (https; no credentials; a literal address must be public)
 * and returns it normalised. Host names are checked when they are resolved ({@link safeLookup}).
 * @throws AppError VALIDATION_FAILED with a message for the administrator.
 */
export function checkEndpointUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.invalid);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.invalid);
  }
  if (url.protocol === "http:" && !httpAllowed())
    throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.https);
  if (url.username || url.password)
    throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.credentials);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!privateAllowed()) {
    if (ipaddr.isValid(host) && !isPublicAddress(host)) {
      throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.private);
    }
    if (host === "localhost" || host.endsWith(".localhost")) {
      throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.private);
    }
  }
  if (url.href.length > 2000) throw new AppError("VALIDATION_FAILED", "The URL is at most 2000 characters");
  return url.href;
}

/** Raised by {@link safeLookup} for a name that resolves to a refused address. */
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

/**
 * A dns.lookup for http.request that refuses loopback and private addresses unless allowed: the
 * address checked is the one connected to.
 */
export function safeLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const allowed = privateAllowed() ? list : list.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) return callback(new PrivateAddressError(hostname), []);
    if (options.all) return callback(null, allowed);
    const first = allowed[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}
