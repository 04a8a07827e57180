/** The business time zone (DECISIONS.md, Appointments): times in emails are Pacific time. */
const changedAtFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

/** When a security change happened, as security notices say it: "November 26, 2026 at 9:15 AM PST". */
export function formatChangedAt(occurredAt: string): string {
  return changedAtFormat.format(new Date(occurredAt));
}
