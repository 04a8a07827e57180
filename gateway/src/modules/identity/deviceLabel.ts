// A short, readable name for the device behind a session ("Chrome on Linux"), read from its
// User-Agent when the session is granted, for the administrator's list of a user's sessions. A few
// ordered patterns, no parser library: the label helps a person recognise a session, it proves nothing.

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b|\biPad\b|\biPod\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** The longest label kept for an agent no pattern names (its raw text, trimmed). */
const RAW_MAX = 60;

/** "Browser on System", or the raw agent trimmed, or "Unknown device" when there is none. */
export function deviceLabel(userAgent: string | undefined): string {
  const agent = (userAgent ?? "").replace(/[^ -~]/g, "").trim();
  if (!agent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  return agent.length > RAW_MAX ? `${agent.slice(0, RAW_MAX - 1)}…` : agent;
}
