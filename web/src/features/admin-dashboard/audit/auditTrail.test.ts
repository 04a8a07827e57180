import {
  chartMax,
  formatDay,
  registrationsSummary,
  userFilterPath,
} from "@web/features/admin-dashboard/dashboard";
import {
  actorLabel,
  auditExportHref,
  auditFilterProblems,
  auditFilterVariables,
  describeChange,
  EMPTY_AUDIT_FILTER,
  targetLabel,
} from "./auditTrail";

describe("the audit view's filter", () => {
  it("turns the form into the query's filter, the fixed user taking precedence", () => {
    const filter = auditFilterVariables(
      { ...EMPTY_AUDIT_FILTER, area: "user.", action: " type_changed ", actorId: "7", targetUserId: "9" },
      { targetUserId: 12 },
    );
    expect(filter).toEqual({ actionPrefix: "user.", q: "type_changed", actorId: 7, targetUserId: 12 });
  });

  it("holds the query back while a field is wrong, and says what is wrong", () => {
    const form = { ...EMPTY_AUDIT_FILTER, actorId: "7x", from: "2026-03-02", to: "2026-03-01" };
    expect(auditFilterVariables(form)).toBeNull();
    expect(auditFilterProblems(form)).toEqual({
      actorId: "A user id is a whole number",
      to: "The From date must be on or before the To date",
    });
  });

  it("gives the export the same filter as query parameters", () => {
    expect(auditExportHref({})).toBe("/api/admin/audit/export.csv");
    expect(auditExportHref({ actionPrefix: "user.", targetUserId: 4 })).toBe(
      "/api/admin/audit/export.csv?actionPrefix=user.&targetUserId=4",
    );
  });
});

describe("how an entry reads", () => {
  it("shows plain changes as before → after and records field by field", () => {
    expect(describeChange("prospect", "client")).toBe("prospect → client");
    expect(describeChange({ status: "pending" }, { status: "cancelled", reason: "Away" })).toBe(
      "status: pending → cancelled; reason: none → Away",
    );
    expect(describeChange({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe("b: 2 → 3");
    expect(describeChange(null, null)).toBe("");
  });

  it("names the actor and the target, or says who they were", () => {
    expect(actorLabel({ actorId: 3, actorName: "Ada Main" })).toBe("Ada Main");
    expect(actorLabel({ actorId: 3, actorName: null })).toBe("User #3");
    expect(actorLabel({ actorId: null, actorName: null })).toBe("System or anonymous");
    expect(targetLabel({ targetType: "esrt_endpoint", targetId: "5", targetName: null })).toBe(
      "esrt endpoint #5",
    );
    expect(targetLabel({ targetType: "login_sha256", targetId: "ab12", targetName: null })).toBe(
      "Unknown account",
    );
  });
});

describe("the dashboard's helpers", () => {
  it("scales the chart to a readable top and sums it up in a sentence", () => {
    expect(chartMax([0, 0])).toBe(1);
    expect(chartMax([3, 4])).toBe(4);
    expect(chartMax([12, 7])).toBe(15);
    expect(chartMax([230])).toBe(250);
    expect(
      registrationsSummary([
        { day: "2026-11-18", count: 1 },
        { day: "2026-11-19", count: 3 },
      ]),
    ).toBe("4 new registrations in the last 2 days; the busiest day was Nov 19 with 3.");
    expect(registrationsSummary([{ day: "2026-11-19", count: 0 }])).toBe(
      "No new registrations in the last 1 days.",
    );
    expect(formatDay("2026-03-08")).toBe("Mar 8");
  });

  it("links a count to the users it counts", () => {
    expect(userFilterPath("/admin/user-management", "userTypes", "client")).toBe(
      "/admin/user-management?userTypes=client",
    );
  });
});
