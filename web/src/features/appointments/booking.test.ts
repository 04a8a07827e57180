import {
  bookingFormSchema,
  bookingWindow,
  businessDateOfPicked,
  hasFreeSlot,
  localLabel,
  pacificLabel,
  pickerDateOf,
  slotOptions,
} from "./booking";

describe("the appointment form's days and slots", () => {
  it("opens the window on today's business date, up to 60 days on, whatever the UTC date", () => {
    // 02:00 UTC on 10 March 2032 is still 9 March in Los Angeles
    expect(bookingWindow(new Date("2032-03-10T02:00:00Z"))).toEqual({
      first: "2032-03-09",
      last: "2032-05-08",
    });
  });

  it("round-trips a business date through the picker's local Date", () => {
    expect(businessDateOfPicked(pickerDateOf("2032-03-14"))).toBe("2032-03-14");
    expect(pickerDateOf("2032-03-14").getDay()).toBe(0); // a Sunday, as the picker shows it
  });

  it("lists sixteen slots 9:00 AM to 4:30 PM Pacific across the daylight-saving change", () => {
    const before = slotOptions("2032-03-12", []);
    const after = slotOptions("2032-03-15", []);
    expect(before).toHaveLength(16);
    expect(before[0]).toMatchObject({ label: "9:00 AM", dateTime: "2032-03-12T17:00:00.000Z" });
    expect(before[15]).toMatchObject({ label: "4:30 PM", dateTime: "2032-03-13T00:30:00.000Z" });
    expect(after[0]).toMatchObject({ label: "9:00 AM", dateTime: "2032-03-15T16:00:00.000Z" });
  });

  it("enables only the slots the server lists free", () => {
    const options = slotOptions("2032-03-15", [
      { dateTime: "2032-03-15T16:00:00.000Z", taken: true },
      { dateTime: "2032-03-15T16:30:00.000Z", taken: false },
    ]);
    expect(options.slice(0, 3).map((o) => [o.label, o.disabled, o.reason])).toEqual([
      ["9:00 AM", true, "taken"],
      ["9:30 AM", false, null],
      ["10:00 AM", true, "unavailable"],
    ]);
    expect(hasFreeSlot([{ dateTime: "x", taken: true }])).toBe(false);
    // availability not loaded: the rules alone (here, slots already past are refused)
    const unknown = slotOptions("2032-03-15", null, new Date("2032-03-15T17:10:00.000Z"));
    expect(unknown.filter((o) => o.disabled).map((o) => o.label)).toEqual(["9:00 AM", "9:30 AM", "10:00 AM"]);
    expect(hasFreeSlot(undefined)).toBe(false);
  });

  it("labels a time in Pacific time, and in another zone only when it differs", () => {
    expect(pacificLabel("2032-03-15T16:00:00.000Z")).toBe("Monday, March 15, 2032 at 9:00 AM PDT");
    expect(localLabel("2032-03-15T16:00:00.000Z", "America/Los_Angeles")).toBeNull();
    expect(localLabel("2032-03-15T16:00:00.000Z", "America/Vancouver")).toBeNull();
    expect(localLabel("2032-03-15T16:00:00.000Z", "Europe/Paris")).toBe("Monday, March 15 at 5:00 PM GMT+1");
  });

  it("refuses notes over 250 characters with the spec's message", () => {
    const result = bookingFormSchema.safeParse({
      date: null,
      dateTime: null,
      appointmentType: "phone",
      notes: "x".repeat(251),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Notes cannot exceed 250 characters");
  });
});
