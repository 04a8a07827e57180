import { Intent } from "@blueprintjs/core";
import { esrtLabelSchema } from "@schema/esrt/contract";
import { text } from "@schema/validation/primitives";
import { uniqueIdSchema } from "@schema/validation/user";
import { dayRange, formatDateTime } from "@web/features/documents/documents";
import type {
  EsrtChannel,
  EsrtDeliveryFilter,
  EsrtDeliveryStatus,
  EsrtHealth,
  EsrtJobStatus,
} from "@web/generated/graphql";
import { useState } from "react";
import { z } from "zod";

// The sync page's logic apart from React (issue 10, /admin/esrt-communication): how health and
// statuses show, the delivery log's filter as GraphQL variables, a job's progress, times and
// latencies, the forms' schemas, and reading a mutation's typed answer.

/** How a tag shows: its words and its intent. */
export interface TagLook {
  text: string;
  intent: Intent;
}

/** How each health of an endpoint or of the NATS channel shows. */
export const HEALTH_TAGS: Record<EsrtHealth, TagLook> = {
  healthy: { text: "Healthy", intent: Intent.SUCCESS },
  degraded: { text: "Degraded", intent: Intent.WARNING },
  paused: { text: "Paused", intent: Intent.DANGER },
  disabled: { text: "Disabled", intent: Intent.NONE },
};

/** What each health means, for a tooltip or a screen reader. */
export const HEALTH_HINTS: Record<EsrtHealth, string> = {
  healthy: "The last attempt succeeded",
  degraded: "Recent attempts failed; retries continue",
  paused: "Failing for days: no automatic attempts until it is enabled again",
  disabled: "Disabled by an administrator or by a 410 answer",
};

/** The statuses of a delivery in the order the filter lists them. */
export const DELIVERY_STATUSES: readonly EsrtDeliveryStatus[] = [
  "pending",
  "sending",
  "delivered",
  "dead",
  "superseded",
];

/** How each delivery status shows. */
export const DELIVERY_STATUS_TAGS: Record<EsrtDeliveryStatus, TagLook> = {
  pending: { text: "Pending", intent: Intent.WARNING },
  sending: { text: "Sending", intent: Intent.PRIMARY },
  delivered: { text: "Delivered", intent: Intent.SUCCESS },
  dead: { text: "Dead", intent: Intent.DANGER },
  superseded: { text: "Superseded", intent: Intent.NONE },
};

/** The channels in the order the filter lists them, with their names. */
export const CHANNEL_LABELS: Record<EsrtChannel, string> = {
  webhook: "Webhook",
  nats: "NATS",
  api: "API",
};

/** How each job status reads. */
export const JOB_STATUS_LABELS: Record<EsrtJobStatus, string> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  failed: "Failed",
};

/** Deliveries per page of the log. */
export const DELIVERY_PAGE_SIZE = 25;

/** How often the page asks for the jobs while one is queued or running. */
export const JOB_POLL_MS = 2000;

/** The delivery log's filters as the form holds them (dates are YYYY-MM-DD, local days). */
export interface DeliveryFilterForm {
  statuses: readonly EsrtDeliveryStatus[];
  /** "" for any */
  channel: EsrtChannel | "";
  /** "" for any, else the endpoint's id as a string (an HTMLSelect's value) */
  endpointId: string;
  /** the user search as typed (trimmed here) */
  user: string;
  from: string;
  to: string;
}

/** The filters of a fresh log: everything. */
export const EMPTY_DELIVERY_FILTER: DeliveryFilterForm = {
  statuses: [],
  channel: "",
  endpointId: "",
  user: "",
  from: "",
  to: "",
};

/**
 * The `filter` variable of esrtDeliveries for the form's values, or null while the dates do not make
 * a range (an unparsable day, or From after To). Empty fields are left out; the statuses keep the
 * filter's order whatever order they were ticked in.
 */
export function deliveryFilterVariables(
  form: DeliveryFilterForm,
  options: { first?: number; after?: string | null } = {},
): EsrtDeliveryFilter | null {
  const range = dayRange(form.from, form.to);
  if (range === null) return null;
  const filter: EsrtDeliveryFilter = { first: options.first ?? DELIVERY_PAGE_SIZE };
  const statuses = DELIVERY_STATUSES.filter((s) => form.statuses.includes(s));
  if (statuses.length > 0) filter.status = statuses;
  if (form.channel) filter.channel = form.channel;
  const endpointId = Number(form.endpointId);
  if (form.endpointId && Number.isSafeInteger(endpointId) && endpointId > 0) filter.endpointId = endpointId;
  const user = form.user.trim();
  if (user) filter.user = user;
  if (range.from) filter.from = range.from;
  if (range.to) filter.to = range.to;
  if (options.after) filter.after = options.after;
  return filter;
}

/** Whether any filter narrows the log (the empty state then says so). */
export function isFiltered(form: DeliveryFilterForm): boolean {
  return (
    form.statuses.length > 0 ||
    form.channel !== "" ||
    form.endpointId !== "" ||
    form.user.trim() !== "" ||
    form.from !== "" ||
    form.to !== ""
  );
}

/** Ticks or unticks one status of the filter. */
export function toggleStatus(
  statuses: readonly EsrtDeliveryStatus[],
  status: EsrtDeliveryStatus,
  on: boolean,
): EsrtDeliveryStatus[] {
  const rest = statuses.filter((s) => s !== status);
  return on ? [...rest, status] : rest;
}

/** Whether a delivery may be sent again by hand (the server's rule: delivered or dead). */
export function canRedeliver(status: EsrtDeliveryStatus): boolean {
  return status === "delivered" || status === "dead";
}

/** What a job's progress is: the share done (0 to 1, for a progress bar) and how it reads. */
export interface JobProgress {
  value: number;
  percent: number;
  label: string;
}

/** What the page needs of a job. */
export interface JobLike {
  status: EsrtJobStatus;
  total: number;
  done: number;
  failed: number;
}

/** Whether a job is still to finish (the page polls while one is). */
export function isJobActive(job: Pick<JobLike, "status">): boolean {
  return job.status === "queued" || job.status === "running";
}

/**
 * A job's progress: items handled (done and failed) of the total, as a share and a whole percent
 * (never over 100, 0 while the total is unknown), and "120 of 500 users (24%) · 3 failed".
 */
export function jobProgress(job: JobLike): JobProgress {
  const handled = Math.max(0, job.done) + Math.max(0, job.failed);
  const value = job.total > 0 ? Math.min(1, handled / job.total) : job.status === "done" ? 1 : 0;
  const percent = Math.floor(value * 100);
  const failed = job.failed > 0 ? ` · ${job.failed} failed` : "";
  const label =
    job.total > 0 || job.status === "done"
      ? `${Math.min(handled, job.total)} of ${job.total} ${job.total === 1 ? "user" : "users"} (${percent}%)${failed}`
      : job.status === "queued"
        ? "Waiting to start"
        : "Counting users…";
  return { value, percent, label };
}

/** The job the page follows: the newest queued or running one, else null. */
export function activeJob<J extends Pick<JobLike, "status">>(jobs: readonly J[]): J | null {
  return jobs.find(isJobActive) ?? null;
}

/** How the kinds of jobs read (an unknown kind shows as it is). */
export function jobKindLabel(kind: string): string {
  const known: Record<string, string> = {
    resync_all: "Resync all",
    resyncAll: "Resync all",
    "resync-all": "Resync all",
  };
  return known[kind] ?? kind;
}

/** A latency: "850 ms" under a second, else "1.2 s" (one decimal under a minute), "2 min 5 s". */
export function formatLatency(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** An optional instant as the tables show it: the date and time, or `empty` ("Never"). */
export function formatInstant(iso: string | null | undefined, empty = "Never"): string {
  if (!iso) return empty;
  return formatDateTime(iso) || empty;
}

/**
 * How long ago an instant was, for "Last success 3 min ago": "just now" (under a minute), minutes,
 * hours, then days. A future instant reads "in 5 min" (a next attempt).
 */
export function formatAgo(iso: string, now: Date = new Date()): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return "";
  const diff = now.getTime() - at;
  const minutes = Math.round(Math.abs(diff) / 60_000);
  let span: string;
  if (minutes < 1) return diff >= 0 ? "just now" : "in under a minute";
  if (minutes < 60) span = `${minutes} min`;
  else if (minutes < 48 * 60) span = `${Math.round(minutes / 60)} h`;
  else span = `${Math.round(minutes / 1440)} days`;
  return diff >= 0 ? `${span} ago` : `in ${span}`;
}

/** What an attempt's answer reads as: the status code, else the error (a timeout), else "No answer". */
export function attemptOutcome(attempt: { statusCode?: number | null; error?: string | null }): string {
  if (attempt.statusCode != null) return String(attempt.statusCode);
  return attempt.error?.trim() || "No answer";
}

/** The intent of an attempt's status code: 2xx success, 429 and 5xx warning, other codes danger. */
export function statusCodeIntent(code: number | null | undefined): Intent {
  if (code == null) return Intent.DANGER;
  if (code >= 200 && code < 300) return Intent.SUCCESS;
  if (code === 429 || code >= 500) return Intent.WARNING;
  return Intent.DANGER;
}

/** A payload as the detail panel prints it: indented JSON (a string as it is). */
export function payloadText(payload: unknown): string {
  if (typeof payload === "string") return payload;
  try {
    return JSON.stringify(payload, null, 2) ?? "";
  } catch {
    return String(payload);
  }
}

/** Who a delivery is about: "Ada Lovelace (ESRT-1234)", the unique id alone, or "No user" (a test). */
export function deliveryUserLabel(d: { userName?: string | null; uniqueId?: string | null }): string {
  const name = d.userName?.trim();
  if (name && d.uniqueId) return `${name} (${d.uniqueId})`;
  return name || d.uniqueId || "No user";
}

/** Where a delivery went: the endpoint's URL for a webhook, else the channel's name. */
export function deliveryTarget(d: { channel: EsrtChannel; endpointUrl?: string | null }): string {
  if (d.channel === "webhook" && d.endpointUrl) return d.endpointUrl;
  return CHANNEL_LABELS[d.channel];
}

/**
 * The instant of a `datetime-local` value ("2032-03-08T14:30", the browser's time zone) as ISO UTC,
 * or null when it is empty or not a real date and time.
 */
export function localDateTimeToIso(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const local = new Date(y, mo - 1, d, h, mi, s);
  if (
    local.getFullYear() !== y ||
    local.getMonth() !== mo - 1 ||
    local.getDate() !== d ||
    local.getHours() !== h ||
    local.getMinutes() !== mi
  ) {
    return null;
  }
  return local.toISOString();
}

/** A `datetime-local` value for an instant in the browser's time zone (to minutes): a default "since". */
export function isoToLocalDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
}

/** The form's messages, where the shared schemas have none. */
export const ESRT_FORM_MESSAGES = {
  urlRequired: "Enter the endpoint's URL",
  urlInvalid: "Enter a full URL, such as https://pro.example.com/webhooks/portal",
  nameRequired: "Give the key a name",
  sinceInvalid: "Choose a date and time",
  sinceFuture: "Choose a time in the past",
} as const;

/**
 * The endpoint form: a URL the browser can parse with an http(s) scheme (the server decides whether
 * https is required and which hosts are allowed, and says so) and an optional description (empty is
 * sent as null).
 */
export const endpointFormSchema = z.object({
  url: text()
    .trim()
    .min(1, ESRT_FORM_MESSAGES.urlRequired)
    .max(2000, "At most 2000 characters")
    .refine((v) => isWebUrl(v), ESRT_FORM_MESSAGES.urlInvalid),
  description: esrtLabelSchema.transform((v) => (v === "" ? null : v)),
});

/** Whether `value` parses as an absolute http or https URL with a host. */
export function isWebUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
}

/** The API key form: a name to tell the key apart. */
export const apiKeyFormSchema = z.object({
  name: esrtLabelSchema.pipe(z.string().min(1, ESRT_FORM_MESSAGES.nameRequired)),
});

/** The "Resync user" form: the user's unique id (the shared rule and messages). */
export const resyncUserFormSchema = z.object({ uniqueId: uniqueIdSchema });

/** The first message of a failed zod parse, for a field's helper text. */
export function firstIssue(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | null {
  if (result.success) return null;
  return result.error?.issues[0]?.message ?? "Invalid value";
}

/** A mutation's answer under the errors plugin: an AppError, or the success with its `data`. */
export type MutationAnswer<T> = { __typename: "AppError"; message: string } | { __typename: string; data: T };

/** What a mutation came to: its data, or the message to show. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string };

/**
 * Reads a mutation's typed answer: the success's data, the server's AppError message, or `fallback`
 * when there was no answer at all.
 */
export function readAnswer<T>(answer: MutationAnswer<T> | null | undefined, fallback: string): Outcome<T> {
  if (!answer) return { ok: false, message: fallback };
  if ("data" in answer) return { ok: true, data: answer.data };
  if ("message" in answer) return { ok: false, message: answer.message || fallback };
  return { ok: false, message: fallback };
}

/** What {@link useAnswerProblem} gives a dialog. */
export interface AnswerProblem {
  /** the message to show, after a failed attempt */
  problem: string | null;
  setProblem(problem: string | null): void;
  /**
   * Sends a mutation whose answer is typed: the success's data goes to `onSuccess`; the server's
   * message, or what was thrown, or `failure`, becomes the problem.
   */
  run<T>(
    failure: string,
    send: () => Promise<MutationAnswer<T> | null | undefined>,
    onSuccess: (data: T) => void,
  ): Promise<void>;
}

/** The problem of a dialog or form that sends one mutation with a typed answer, and its runner. */
export function useAnswerProblem(): AnswerProblem {
  const [problem, setProblem] = useState<string | null>(null);
  const run: AnswerProblem["run"] = async (failure, send, onSuccess) => {
    setProblem(null);
    try {
      const outcome = readAnswer(await send(), failure);
      if (!outcome.ok) return setProblem(outcome.message);
      onSuccess(outcome.data);
    } catch (caught) {
      setProblem(thrownMessage(caught, failure));
    }
  };
  return { problem, setProblem, run };
}

/** The message of something a mutation threw (a network failure, a GraphQL error). */
export function thrownMessage(caught: unknown, fallback: string): string {
  return caught instanceof Error && caught.message ? caught.message : fallback;
}

/** A count with its noun: "1 delivery", "3 deliveries". */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
