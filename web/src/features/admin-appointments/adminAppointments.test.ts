import {
  businessToday,
  bySlot,
  countByStatus,
  currentMonday,
  dateRangeProblem,
  isChangeable,
  matchingClient,
  mondayOf,
  pacificDate,
  slotLabels,
  sortedForTable,
  sortKey,
  workWeek,
} from "./adminAppointments";

const a = (
  id: number,
  dateTime: string,
  status: "pending" | "confirmed" | "cancelled",
  name = "Ada Lovelace",
) => ({
  id,
  dateTime,
  status,
  clientFirstName: name.split(" ")[0] ?? "",
  clientLastName: name.split(" ")[1] ?? "",
  clientEmail: `${name.split(" ")[0]?.toLowerCase()}@client.test`,
});

describe("the appointment console's week", () => {
  it("finds the Monday of a week and moves by weeks", () => {
    expect(mondayOf("2032-03-10")).toBe("2032-03-08");
    expect(mondayOf("2032-03-14")).toBe("2032-03-08"); // Sunday belongs to the week before
    expect(mondayOf("2032-03-10", 1)).toBe("2032-03-15");
    expect(mondayOf("2032-03-10", -1)).toBe("2032-03-01");
    // a weekend shows the coming week; Saturday 02:00 UTC is still Friday in Los Angeles
    expect(currentMonday(new Date("2032-03-13T20:00:00Z"))).toBe("2032-03-15");
    expect(currentMonday(new Date("2032-03-13T02:00:00Z"))).toBe("2032-03-08");
  });

  it("lays out Monday to Friday with slots at 9:00 AM Pacific across the daylight-saving change", () => {
    // 2032-11-07 is the end of daylight time: the week of 1 November is daylight, 8 November standard
    const daylight = workWeek("2032-11-01");
    const standard = workWeek("2032-11-08");
    expect(daylight.map((d) => d.label)).toEqual([
      "Mon 1 Nov",
      "Tue 2 Nov",
      "Wed 3 Nov",
      "Thu 4 Nov",
      "Fri 5 Nov",
    ]);
    expect(daylight[0]?.slots[0]).toBe("2032-11-01T16:00:00.000Z");
    expect(standard[0]?.slots[0]).toBe("2032-11-08T17:00:00.000Z");
    expect(standard[4]?.slots).toHaveLength(16);
    expect(slotLabels()[0]).toBe("9:00 AM");
    expect(slotLabels()[15]).toBe("4:30 PM");
  });

  it("keeps 9:00 AM Pacific across the spring change, and moves across it by whole weeks", () => {
    // 2032-03-14 is the start of daylight time: 8 March is standard (UTC-8), 15 March daylight (UTC-7)
    const standard = workWeek("2032-03-08");
    const daylight = workWeek(mondayOf("2032-03-08", 1));
    expect(daylight[0]?.date).toBe("2032-03-15");
    expect(standard[4]?.slots[0]).toBe("2032-03-12T17:00:00.000Z");
    expect(daylight[0]?.slots[0]).toBe("2032-03-15T16:00:00.000Z");
    expect(daylight[0]?.slots[15]).toBe("2032-03-15T23:30:00.000Z");
    expect(mondayOf("2032-03-15", -1)).toBe("2032-03-08");
    // an appointment at 9:00 AM daylight time lands in the first row of Monday's column
    const slots = bySlot([a(7, "2032-03-15T16:00:00.000Z", "pending")]);
    expect(slots.get(Date.parse(daylight[0]?.slots[0] ?? ""))?.map((x) => x.id)).toEqual([7]);
    expect(slots.get(Date.parse(standard[0]?.slots[0] ?? ""))).toBeUndefined();
  });

  it("tells today's business date in Los Angeles", () => {
    expect(businessToday(new Date("2032-03-13T06:59:00Z"))).toBe("2032-03-12");
    expect(businessToday(new Date("2032-03-13T08:00:00Z"))).toBe("2032-03-13");
  });

  it("places appointments in their slot, live ones before cancelled ones", () => {
    const map = bySlot([
      a(1, "2032-11-08T17:00:00.000Z", "cancelled"),
      a(2, "2032-11-08T17:00:00.000Z", "pending"),
      a(3, "2032-11-08T17:30:00.000Z", "confirmed"),
    ]);
    expect(map.get(Date.parse("2032-11-08T17:00:00.000Z"))?.map((x) => x.id)).toEqual([2, 1]);
    expect(map.get(Date.parse("2032-11-08T17:30:00.000Z"))?.map((x) => x.id)).toEqual([3]);
  });
});

describe("the appointment console's filters", () => {
  const list = [
    a(1, "2032-11-08T17:00:00.000Z", "pending", "Zoë Smith"),
    a(2, "2032-11-08T18:00:00.000Z", "confirmed", "Alan Turing"),
    a(3, "2032-11-08T19:00:00.000Z", "cancelled", "Alan Kay"),
  ];

  it("matches clients by name or email, ignoring case and accents", () => {
    expect(matchingClient(list, "zoe").map((x) => x.id)).toEqual([1]);
    expect(matchingClient(list, "ALAN").map((x) => x.id)).toEqual([2, 3]);
    expect(matchingClient(list, "alan@client").map((x) => x.id)).toEqual([2, 3]);
    expect(matchingClient(list, "  ").map((x) => x.id)).toEqual([1, 2, 3]);
  });

  it("counts each status and tells which appointments can still change", () => {
    expect(countByStatus(list)).toEqual({ pending: 1, confirmed: 1, cancelled: 1 });
    const now = new Date("2032-11-08T17:30:00.000Z");
    expect(list.map((x) => isChangeable(x, now))).toEqual([false, true, false]);
    expect(sortKey("createdAt", true)).toBe("-createdAt");
    expect(sortKey("dateTime", false)).toBe("dateTime");
  });

  it("sorts by client in the browser, keeping each client's appointments in the server's order", () => {
    const rows = [...list, a(4, "2032-11-09T17:00:00.000Z", "pending", "Alan Kay")];
    expect(sortKey("client", false)).toBeUndefined();
    expect(sortedForTable(rows, "client", false).map((x) => x.id)).toEqual([3, 4, 1, 2]);
    expect(sortedForTable(rows, "client", true).map((x) => x.id)).toEqual([2, 1, 3, 4]);
    // other columns are the server's order, untouched
    expect(sortedForTable(rows, "status", true).map((x) => x.id)).toEqual([1, 2, 3, 4]);
  });

  it("refuses a date range that ends before it starts or is not a date", () => {
    expect(dateRangeProblem("", "")).toBeNull();
    expect(dateRangeProblem("2032-11-08", "")).toBeNull();
    expect(dateRangeProblem("2032-11-08", "2032-11-08")).toBeNull();
    expect(dateRangeProblem("2032-11-09", "2032-11-08")).toBe(
      "The From date must be on or before the To date",
    );
    expect(dateRangeProblem("2032-02-30", "")).toBe("Enter dates as YYYY-MM-DD");
    expect(dateRangeProblem("", "20321-01-01")).toBe("Enter dates as YYYY-MM-DD");
  });

  it("shows when an appointment was booked as a Pacific date", () => {
    // 05:30 UTC on 9 November is still the evening of 8 November in Los Angeles
    expect(pacificDate("2032-11-09T05:30:00.000Z")).toBe("Nov 8, 2032");
    expect(pacificDate("2032-11-09T08:30:00.000Z")).toBe("Nov 9, 2032");
  });
});
