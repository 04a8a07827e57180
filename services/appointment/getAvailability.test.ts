import {
  BUSINESS_TIME_ZONE,
  inBusinessTime,
  slotRuleViolation,
  slotsOfBusinessDay,
} from "@schema/validation/appointment";
import { testDb } from "@services/shared/testing/db";
import { DateTime } from "luxon";
import { getAvailability } from "./getAvailability";

/** The availability the booking rules give slot by slot: every slot of every day, checked on its own. */
function bySlotRules(from: string, days: number, now: Date) {
  const first = DateTime.fromISO(from, { zone: BUSINESS_TIME_ZONE });
  return Array.from({ length: days }, (_, i) => {
    const date = first.plus({ days: i }).toISODate() ?? "";
    const slots = slotsOfBusinessDay(date)
      .filter((slot) => slotRuleViolation(slot, now) === null)
      .map((slot) => {
        const local = inBusinessTime(slot).setLocale("en-US");
        return {
          dateTime: slot.toISOString(),
          time: local.toFormat("HH:mm"),
          label: local.toFormat("h:mm a"),
        };
      });
    return { date, slots };
  });
}

describe("getAvailability", () => {
  it.each([
    // a window over the spring change, over the autumn change, from mid-morning of a business day,
    // and from a weekend night
    ["2027-02-20T17:45:00Z", "2027-02-20"],
    ["2026-10-05T16:10:00Z", "2026-10-05"],
    ["2031-06-04T18:00:00Z", "2031-06-04"],
    ["2032-11-07T07:30:00Z", "2032-11-06"],
  ])("gives for %s exactly the slots the booking rules allow, 62 days long", async (at, from) => {
    const db = await testDb();
    const now = new Date(at);
    const days = await getAvailability({
      db,
      from,
      to: DateTime.fromISO(from).plus({ days: 61 }).toISODate() ?? "",
      now,
    });
    const shown = days.map((d) => ({
      date: d.date,
      slots: d.slots.map(({ dateTime, time, label }) => ({ dateTime, time, label })),
    }));
    expect(shown).toEqual(bySlotRules(from, 62, now));
    expect(days.flatMap((d) => d.slots).length).toBeGreaterThan(40 * 16 - 16);
  });
});
