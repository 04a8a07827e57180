import { Intent } from "@blueprintjs/core";
import {
  activeJob,
  apiKeyFormSchema,
  attemptOutcome,
  canRedeliver,
  DELIVERY_PAGE_SIZE,
  DELIVERY_STATUS_TAGS,
  deliveryFilterVariables,
  deliveryTarget,
  deliveryUserLabel,
  EMPTY_DELIVERY_FILTER,
  ESRT_FORM_MESSAGES,
  endpointFormSchema,
  firstIssue,
  formatAgo,
  formatInstant,
  formatLatency,
  HEALTH_TAGS,
  isFiltered,
  isoToLocalDateTime,
  isWebUrl,
  jobKindLabel,
  jobProgress,
  localDateTimeToIso,
  payloadText,
  plural,
  readAnswer,
  resyncUserFormSchema,
  statusCodeIntent,
  thrownMessage,
  toggleStatus,
} from "./esrtSync";

describe("health and status tags", () => {
  it("shows healthy as success, degraded as warning, paused as danger and disabled as none", () => {
    expect(HEALTH_TAGS.healthy).toEqual({ text: "Healthy", intent: Intent.SUCCESS });
    expect(HEALTH_TAGS.degraded).toEqual({ text: "Degraded", intent: Intent.WARNING });
    expect(HEALTH_TAGS.paused).toEqual({ text: "Paused", intent: Intent.DANGER });
    expect(HEALTH_TAGS.disabled).toEqual({ text: "Disabled", intent: Intent.NONE });
  });

  it("marks dead deliveries as danger and delivered ones as success", () => {
    expect(DELIVERY_STATUS_TAGS.dead.intent).toBe(Intent.DANGER);
    expect(DELIVERY_STATUS_TAGS.delivered.intent).toBe(Intent.SUCCESS);
    expect(DELIVERY_STATUS_TAGS.superseded.intent).toBe(Intent.NONE);
  });

  it("offers Redeliver only for delivered and dead deliveries", () => {
    expect(canRedeliver("delivered")).toBe(true);
    expect(canRedeliver("dead")).toBe(true);
    for (const s of ["pending", "sending", "superseded"] as const) expect(canRedeliver(s)).toBe(false);
  });
});

describe("the delivery log's filter as GraphQL variables", () => {
  it("asks for the first page of everything when nothing is filtered", () => {
    expect(deliveryFilterVariables(EMPTY_DELIVERY_FILTER)).toEqual({ first: DELIVERY_PAGE_SIZE });
    expect(isFiltered(EMPTY_DELIVERY_FILTER)).toBe(false);
  });

  it("sends each filter set, statuses in the list's order, the user search trimmed", () => {
    const form = {
      statuses: ["dead", "pending"] as const,
      channel: "webhook" as const,
      endpointId: "7",
      user: "  ada ",
      from: "",
      to: "",
    };
    expect(deliveryFilterVariables({ ...form, statuses: [...form.statuses] }, { after: "c25" })).toEqual({
      first: DELIVERY_PAGE_SIZE,
      status: ["pending", "dead"],
      channel: "webhook",
      endpointId: 7,
      user: "ada",
      after: "c25",
    });
    expect(isFiltered({ ...EMPTY_DELIVERY_FILTER, user: "x" })).toBe(true);
  });

  it("leaves out a blank user search and an endpoint that is not an id", () => {
    const filter = deliveryFilterVariables({ ...EMPTY_DELIVERY_FILTER, user: "   ", endpointId: "abc" });
    expect(filter).toEqual({ first: DELIVERY_PAGE_SIZE });
    expect(isFiltered({ ...EMPTY_DELIVERY_FILTER, user: "   " })).toBe(false);
  });

  it("turns the day range into from (start of the first day) and to (start of the day after the last)", () => {
    const filter = deliveryFilterVariables({
      ...EMPTY_DELIVERY_FILTER,
      from: "2032-03-08",
      to: "2032-03-09",
    });
    expect(filter?.from).toBe(new Date(2032, 2, 8).toISOString());
    expect(filter?.to).toBe(new Date(2032, 2, 10).toISOString());
  });

  it("refuses a range whose From is after its To", () => {
    expect(
      deliveryFilterVariables({ ...EMPTY_DELIVERY_FILTER, from: "2032-03-09", to: "2032-03-08" }),
    ).toBeNull();
  });

  it("ticks and unticks a status without duplicates", () => {
    expect(toggleStatus(["dead"], "dead", true)).toEqual(["dead"]);
    expect(toggleStatus(["dead"], "pending", true)).toEqual(["dead", "pending"]);
    expect(toggleStatus(["dead", "pending"], "dead", false)).toEqual(["pending"]);
  });
});

describe("a job's progress", () => {
  it("counts done and failed items of the total", () => {
    expect(jobProgress({ status: "running", total: 500, done: 117, failed: 3 })).toEqual({
      value: 0.24,
      percent: 24,
      label: "120 of 500 users (24%) · 3 failed",
    });
  });

  it("never passes 100% and reads one user in the singular", () => {
    const p = jobProgress({ status: "done", total: 1, done: 2, failed: 0 });
    expect(p.value).toBe(1);
    expect(p.label).toBe("1 of 1 user (100%)");
  });

  it("says what a job without a total is doing", () => {
    expect(jobProgress({ status: "queued", total: 0, done: 0, failed: 0 })).toEqual({
      value: 0,
      percent: 0,
      label: "Waiting to start",
    });
    expect(jobProgress({ status: "running", total: 0, done: 0, failed: 0 }).label).toBe("Counting users…");
    expect(jobProgress({ status: "done", total: 0, done: 0, failed: 0 }).percent).toBe(100);
  });

  it("follows the newest queued or running job, none once all are finished", () => {
    const jobs = [
      { id: 3, status: "done" as const },
      { id: 2, status: "running" as const },
      { id: 1, status: "queued" as const },
    ];
    expect(activeJob(jobs)?.id).toBe(2);
    expect(activeJob([{ id: 1, status: "failed" as const }])).toBeNull();
    expect(jobKindLabel("resync_all")).toBe("Resync all");
    expect(jobKindLabel("import")).toBe("import");
  });
});

describe("times and latencies", () => {
  it("formats latencies in ms, seconds and minutes", () => {
    expect(formatLatency(0)).toBe("0 ms");
    expect(formatLatency(849.6)).toBe("850 ms");
    expect(formatLatency(1234)).toBe("1.2 s");
    expect(formatLatency(15_000)).toBe("15.0 s");
    expect(formatLatency(125_000)).toBe("2 min 5 s");
    expect(formatLatency(-1)).toBe("");
  });

  it("says Never for a missing instant", () => {
    expect(formatInstant(null)).toBe("Never");
    expect(formatInstant(undefined, "—")).toBe("—");
    expect(formatInstant("not a date")).toBe("Never");
    expect(formatInstant("2032-03-08T14:30:00Z")).toMatch(/2032/);
  });

  it("tells how long ago, or how soon", () => {
    const now = new Date("2032-03-08T12:00:00Z");
    expect(formatAgo("2032-03-08T11:59:40Z", now)).toBe("just now");
    expect(formatAgo("2032-03-08T11:57:00Z", now)).toBe("3 min ago");
    expect(formatAgo("2032-03-08T09:00:00Z", now)).toBe("3 h ago");
    expect(formatAgo("2032-03-04T12:00:00Z", now)).toBe("4 days ago");
    expect(formatAgo("2032-03-08T12:05:00Z", now)).toBe("in 5 min");
    expect(formatAgo("garbage", now)).toBe("");
  });

  it("reads a datetime-local value in the browser's time zone, and refuses impossible ones", () => {
    expect(localDateTimeToIso("2032-03-08T14:30")).toBe(new Date(2032, 2, 8, 14, 30).toISOString());
    expect(localDateTimeToIso("2032-02-30T10:00")).toBeNull();
    expect(localDateTimeToIso("")).toBeNull();
    expect(localDateTimeToIso("2032-03-08")).toBeNull();
    expect(isoToLocalDateTime(new Date(2032, 2, 8, 4, 5))).toBe("2032-03-08T04:05");
  });
});

describe("attempts and deliveries", () => {
  it("shows the status code, else the error", () => {
    expect(attemptOutcome({ statusCode: 503, error: "Service Unavailable" })).toBe("503");
    expect(attemptOutcome({ statusCode: null, error: "Timed out after 15 s" })).toBe("Timed out after 15 s");
    expect(attemptOutcome({})).toBe("No answer");
  });

  it("colours 2xx success, 429 and 5xx warning, the rest danger", () => {
    expect(statusCodeIntent(204)).toBe(Intent.SUCCESS);
    expect(statusCodeIntent(429)).toBe(Intent.WARNING);
    expect(statusCodeIntent(503)).toBe(Intent.WARNING);
    expect(statusCodeIntent(410)).toBe(Intent.DANGER);
    expect(statusCodeIntent(null)).toBe(Intent.DANGER);
  });

  it("prints payloads as indented JSON", () => {
    expect(payloadText({ type: "user.sync", data: { version: 2 } })).toBe(
      '{\n  "type": "user.sync",\n  "data": {\n    "version": 2\n  }\n}',
    );
    expect(payloadText("raw")).toBe("raw");
  });

  it("names the user and the target", () => {
    expect(deliveryUserLabel({ userName: "Ada Lovelace", uniqueId: "ESRT-1" })).toBe("Ada Lovelace (ESRT-1)");
    expect(deliveryUserLabel({ userName: " ", uniqueId: "ESRT-1" })).toBe("ESRT-1");
    expect(deliveryUserLabel({})).toBe("No user");
    expect(deliveryTarget({ channel: "webhook", endpointUrl: "https://pro.test/h" })).toBe(
      "https://pro.test/h",
    );
    expect(deliveryTarget({ channel: "nats", endpointUrl: null })).toBe("NATS");
  });

  it("counts with the right noun", () => {
    expect(plural(1, "delivery", "deliveries")).toBe("1 delivery");
    expect(plural(0, "delivery", "deliveries")).toBe("0 deliveries");
  });
});

describe("the forms", () => {
  it("takes an https or http URL and an optional description (empty is null)", () => {
    expect(endpointFormSchema.parse({ url: " https://pro.example.com/hooks ", description: "" })).toEqual({
      url: "https://pro.example.com/hooks",
      description: null,
    });
    expect(
      endpointFormSchema.parse({ url: "http://10.0.0.5:8080/h", description: " Pro " }).description,
    ).toBe("Pro");
  });

  it("refuses an empty URL, a non-URL and other schemes with the form's messages", () => {
    expect(firstIssue(endpointFormSchema.safeParse({ url: "", description: "" }))).toBe(
      ESRT_FORM_MESSAGES.urlRequired,
    );
    expect(firstIssue(endpointFormSchema.safeParse({ url: "pro.example.com", description: "" }))).toBe(
      ESRT_FORM_MESSAGES.urlInvalid,
    );
    expect(isWebUrl("ftp://pro.example.com")).toBe(false);
    expect(isWebUrl("javascript:alert(1)")).toBe(false);
    expect(
      firstIssue(endpointFormSchema.safeParse({ url: "https://x.test/\u0000", description: "" })),
    ).toMatch(/NUL/);
  });

  it("wants a name for an API key and a unique id for a resync", () => {
    expect(firstIssue(apiKeyFormSchema.safeParse({ name: "   " }))).toBe(ESRT_FORM_MESSAGES.nameRequired);
    expect(apiKeyFormSchema.parse({ name: " Pro app " }).name).toBe("Pro app");
    expect(firstIssue(resyncUserFormSchema.safeParse({ uniqueId: "" }))).toBe("A unique id is required");
    expect(resyncUserFormSchema.parse({ uniqueId: " ESRT-1 " }).uniqueId).toBe("ESRT-1");
  });
});

describe("reading a mutation's answer", () => {
  it("gives the data of a success, the message of an AppError, the fallback for nothing", () => {
    expect(readAnswer({ __typename: "MutationResyncEsrtUserSuccess", data: 2 }, "failed")).toEqual({
      ok: true,
      data: 2,
    });
    expect(readAnswer<number>({ __typename: "AppError", message: "Unknown user" }, "failed")).toEqual({
      ok: false,
      message: "Unknown user",
    });
    expect(readAnswer<number>(undefined, "failed")).toEqual({ ok: false, message: "failed" });
    expect(thrownMessage(new Error("Network down"), "failed")).toBe("Network down");
    expect(thrownMessage("?", "failed")).toBe("failed");
  });
});
