import {
  guardedLookup,
  isLocalhostName,
  isPublicAddress,
  privateAddressesAllowed,
} from "@services/shared/addressSafety";
import { config } from "@services/shared/config";
import { AppError } from "@services/shared/errors";
import ipaddr from "ipaddr.js";

// What a webhook endpoint may be (issue 10, Safety): https, and not an address inside the machine or
// its private network (SSRF), unless settings allow it for development and tests. The address rule
// (services/shared/addressSafety.ts, shared with the SMTP and storage connection tests) is checked
// when an endpoint is saved and again on every connection (the lookup below), so a name that later
// resolves to a private address (DNS rebinding) is refused too.

/** Whether http URLs are allowed: ESRT_ALLOW_HTTP, or development when it is unset. */
export function httpAllowed(): boolean {
  const cfg = config();
  return cfg.ESRT_ALLOW_HTTP ?? cfg.NODE_ENV === "development";
}

/** Whether loopback and private addresses are allowed: ESRT_ALLOW_PRIVATE, or development when unset. */
export function privateAllowed(): boolean {
  return privateAddressesAllowed(config().ESRT_ALLOW_PRIVATE);
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
  if (literalAddressRefused(url.hostname) || (!privateAllowed() && isLocalhostName(url.hostname))) {
    throw new AppError("VALIDATION_FAILED", ENDPOINT_URL_MESSAGES.private);
  }
  if (url.href.length > 2000) throw new AppError("VALIDATION_FAILED", "The URL is at most 2000 characters");
  return url.href;
}

/**
 * Whether a URL's host is a literal address the rule refuses (a host name is judged when it is
 * resolved, by {@link safeLookup}).
 */
export function literalAddressRefused(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return !privateAllowed() && ipaddr.isValid(host) && !isPublicAddress(host);
}

/**
 * A dns.lookup for http.request that refuses loopback and private addresses unless allowed
 * (ESRT_ALLOW_PRIVATE): the address checked is the one connected to.
 */
export const safeLookup = guardedLookup(privateAllowed);
