import "./documents.css";
import {
  Button,
  ButtonGroup,
  Callout,
  Card,
  Classes,
  FileInput,
  FormGroup,
  InputGroup,
  Intent,
  ProgressBar,
  TextArea,
} from "@blueprintjs/core";
import { Cross, Pause, Play, Refresh, Trash, Upload } from "@blueprintjs/icons";
import { formatBytes } from "@schema/validation/document";
import type { UploadPurpose } from "@web/lib/upload";
import { type DragEvent, useId, useState } from "react";
import {
  acceptAttribute,
  type DraftProblems,
  draftIsValid,
  draftProblems,
  type PolicyLike,
  progressLabel,
} from "./documents";
import type { UploadItem, Uploads } from "./useUploads";

/** Props of the drop zone. */
export interface DropZoneProps {
  onFiles(files: File[]): void;
  /** the allowed types, for the picker's filter; empty allows any */
  allowedFileTypes: readonly string[];
  multiple?: boolean;
  /** the picker's accessible name */
  label: string;
  disabled?: boolean;
}

/**
 * A dashed area files can be dropped on, around a real file input (reachable by Tab, opened with
 * Enter or Space) for keyboards and for anyone who would rather pick.
 */
export function DropZone({ onFiles, allowedFileTypes, multiple = false, label, disabled }: DropZoneProps) {
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent<HTMLFieldSetElement>) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };
  return (
    <fieldset
      aria-label={multiple ? "Drop files to upload" : "Drop a file to upload"}
      className={`documents-dropzone${over ? " documents-dropzone-over" : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <Upload size={20} />
      <span>{multiple ? "Drop files here, or" : "Drop a file here, or"}</span>
      <FileInput
        disabled={disabled}
        text={multiple ? "Choose files…" : "Choose a file…"}
        buttonText="Browse"
        inputProps={{
          multiple,
          accept: allowedFileTypes.length ? acceptAttribute(allowedFileTypes) : undefined,
          "aria-label": label,
        }}
        onInputChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          // the same file may be chosen again after a reload to resume it
          event.currentTarget.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </fieldset>
  );
}

/** Props of one file's row. */
export interface UploadRowProps {
  item: UploadItem;
  problems: DraftProblems;
  uploads: Uploads;
  /** whether the title and description can be typed (a resubmission keeps the document's title) */
  editable?: boolean;
  onStart(): void;
}

const PHASE_TEXT: Record<UploadItem["phase"], string> = {
  ready: "Ready to upload",
  uploading: "Uploading",
  paused: "Paused",
  done: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

/**
 * One chosen file: its title and description (checked with the shared messages), what is wrong
 * with the file itself, and while it uploads a progress bar with pause, resume and cancel.
 */
export function UploadRow({ item, problems, uploads, editable = true, onStart }: UploadRowProps) {
  const ids = { title: useId(), description: useId() };
  const ready = item.phase === "ready" || item.phase === "failed";
  const percent = item.total > 0 ? item.sent / item.total : 0;
  const name = item.file.name;
  return (
    <Card compact className="documents-upload" data-upload-file={name}>
      <div className="documents-upload-head">
        <strong className="documents-upload-name">{name}</strong>
        <span className={Classes.TEXT_MUTED}>
          {formatBytes(item.file.size)} · {PHASE_TEXT[item.phase]}
          {item.phase === "uploading" || item.phase === "paused"
            ? `: ${progressLabel(item.sent, item.total, formatBytes)}`
            : ""}
        </span>
      </div>
      {problems.file && (
        <Callout intent={Intent.DANGER} compact>
          {problems.file}
        </Callout>
      )}
      {editable && ready && !problems.file && (
        <div className="documents-upload-fields">
          <FormGroup label="Title" labelFor={ids.title} {...problemProps(problems.title)}>
            <InputGroup
              id={ids.title}
              value={item.title}
              intent={problems.title ? Intent.DANGER : Intent.NONE}
              onChange={(e) => uploads.edit(item.key, { title: e.currentTarget.value })}
            />
          </FormGroup>
          <FormGroup
            label="Description (optional)"
            labelFor={ids.description}
            {...problemProps(problems.description)}
          >
            <TextArea
              id={ids.description}
              fill
              rows={1}
              autoResize
              value={item.description}
              onChange={(e) => uploads.edit(item.key, { description: e.currentTarget.value })}
            />
          </FormGroup>
        </div>
      )}
      {!editable && <div>Title: {item.title}</div>}
      {item.phase !== "ready" && item.phase !== "cancelled" && (
        <ProgressBar
          aria-label={`Upload of ${name}`}
          value={item.phase === "failed" ? 1 : percent}
          intent={
            item.phase === "done" ? Intent.SUCCESS : item.phase === "failed" ? Intent.DANGER : Intent.PRIMARY
          }
          animate={item.phase === "uploading"}
          stripes={item.phase === "uploading"}
        />
      )}
      {item.error && (
        <Callout intent={Intent.DANGER} compact role="alert">
          {item.error}
        </Callout>
      )}
      <ButtonGroup variant="minimal" size="small" className="documents-upload-actions">
        {ready && (
          <Button
            intent={Intent.PRIMARY}
            icon={item.phase === "failed" ? <Refresh /> : <Upload />}
            text={item.phase === "failed" ? "Try again" : "Upload"}
            aria-label={`${item.phase === "failed" ? "Try again" : "Upload"} ${name}`}
            disabled={!draftIsValid(problems)}
            onClick={onStart}
          />
        )}
        {item.phase === "uploading" && (
          <Button
            icon={<Pause />}
            text="Pause"
            aria-label={`Pause ${name}`}
            onClick={() => uploads.pause(item.key)}
          />
        )}
        {item.phase === "paused" && (
          <Button
            icon={<Play />}
            text="Resume"
            aria-label={`Resume ${name}`}
            onClick={() => uploads.resume(item.key)}
          />
        )}
        {(item.phase === "uploading" || item.phase === "paused") && (
          <Button
            intent={Intent.DANGER}
            icon={<Cross />}
            text="Cancel"
            aria-label={`Cancel ${name}`}
            onClick={() => uploads.cancel(item.key)}
          />
        )}
        {(ready || item.phase === "cancelled" || item.phase === "done") && (
          <Button
            icon={<Trash />}
            text="Remove"
            aria-label={`Remove ${name} from the list`}
            onClick={() => uploads.remove(item.key)}
          />
        )}
      </ButtonGroup>
    </Card>
  );
}

/** Props of the list of chosen files. */
export interface UploadListProps {
  uploads: Uploads;
  policy: PolicyLike & { endpoint: string };
  purpose: UploadPurpose;
  editable?: boolean;
}

/** The chosen files, each a row, and "Upload all" for the valid ones not yet sent. */
export function UploadList({ uploads, policy, purpose, editable = true }: UploadListProps) {
  const checked = uploads.items.map((item) => ({ item, problems: draftProblems(item, policy) }));
  const startable = checked.filter(({ item, problems }) => item.phase === "ready" && draftIsValid(problems));
  const settled = uploads.items.some((i) => ["done", "failed", "cancelled"].includes(i.phase));
  if (checked.length === 0) return null;
  return (
    <div className="documents-uploads">
      <ul className={`${Classes.LIST_UNSTYLED} documents-upload-list`} aria-label="Files to upload">
        {checked.map(({ item, problems }) => (
          <li key={item.key}>
            <UploadRow
              item={item}
              problems={problems}
              uploads={uploads}
              editable={editable}
              onStart={() => uploads.start(item.key, policy.endpoint, purpose)}
            />
          </li>
        ))}
      </ul>
      <div className="documents-upload-footer">
        {startable.length > 1 && (
          <Button
            intent={Intent.PRIMARY}
            icon={<Upload />}
            text={`Upload all (${startable.length})`}
            onClick={() => {
              for (const { item } of startable) uploads.start(item.key, policy.endpoint, purpose);
            }}
          />
        )}
        {settled && <Button variant="minimal" text="Clear finished" onClick={uploads.clearSettled} />}
      </div>
    </div>
  );
}

/** A field's intent and helper text for its problem, if any. */
function problemProps(problem: string | null | undefined) {
  return { intent: problem ? Intent.DANGER : Intent.NONE, helperText: problem ?? undefined };
}
