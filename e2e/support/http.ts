import { TEST_PASSWORD } from "@services/shared/testing/factories";

// For tests and benchmarks that drive the portal's processes over HTTP, without a browser: the
// session a sign-in gives, and waiting for what another process does.

/** The cookie header a sign-in's Set-Cookie answer gives. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .join("; ");
}

/**
 * Signs `username` in with POST /api/login on the portal at `baseUrl` and answers the session's
 * cookie header.
 * @throws when the sign-in is not answered with 200 and a cookie.
 */
export async function signInOverHttp(
  baseUrl: string,
  username: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: username, password }),
  });
  await res.arrayBuffer();
  const cookie = cookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`sign-in of ${username} answered ${res.status}`);
  return cookie;
}

/**
 * Resolves with `probe`'s first truthy answer, asked every 50 ms.
 * @throws with `what` (and `detail`) when none comes within `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
  detail: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms\n${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
