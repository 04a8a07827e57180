import { startUpload, type UploadedDocument, type UploadHandle, type UploadPurpose } from "@web/lib/upload";
import { useCallback, useEffect, useRef, useState } from "react";
import { titleFromFileName } from "./documents";

/** Where one file stands. */
export type UploadPhase = "ready" | "uploading" | "paused" | "done" | "failed" | "cancelled";

/** One file chosen for upload, its details and its progress. */
export interface UploadItem {
  key: string;
  file: File;
  title: string;
  description: string;
  phase: UploadPhase;
  sent: number;
  total: number;
  /** the server's (or the network's) message when the upload failed */
  error: string | null;
}

/** What the screen does with the list of files. */
export interface Uploads {
  items: UploadItem[];
  /** adds files, each titled from its name unless `title` is given (a resubmission keeps its title) */
  add(files: readonly File[], title?: string): void;
  edit(key: string, patch: Partial<Pick<UploadItem, "title" | "description">>): void;
  start(key: string, endpoint: string, purpose: UploadPurpose): void;
  pause(key: string): void;
  resume(key: string): void;
  cancel(key: string): void;
  remove(key: string): void;
  /** drops the finished, failed and cancelled files from the list */
  clearSettled(): void;
}

let counter = 0;

/**
 * The files of an upload form and their tus uploads: each file gets a title from its name, can be
 * started, paused, resumed and cancelled, and reports its progress. `onUploaded` runs once per
 * finished file. Uploads still running when the screen goes away are paused (the browser keeps
 * their URL, so adding the same file again continues them).
 */
export function useUploads(
  onUploaded: (item: UploadItem, document: UploadedDocument | null) => void,
): Uploads {
  const [items, setItems] = useState<UploadItem[]>([]);
  const handles = useRef(new Map<string, UploadHandle>());
  const latest = useRef(onUploaded);
  latest.current = onUploaded;
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  useEffect(() => {
    const running = handles.current;
    return () => {
      for (const handle of running.values()) void handle.pause();
      running.clear();
    };
  }, []);

  const add = useCallback((files: readonly File[], title?: string) => {
    const added = files.map((file) => ({
      key: `upload-${++counter}`,
      file,
      title: title ?? titleFromFileName(file.name),
      description: "",
      phase: "ready" as const,
      sent: 0,
      total: file.size,
      error: null,
    }));
    setItems((list) => [...list, ...added]);
  }, []);

  const start = useCallback(
    (key: string, endpoint: string, purpose: UploadPurpose) => {
      const item = itemsRef.current.find((i) => i.key === key);
      if (!item || handles.current.has(key)) return;
      patch(key, { phase: "uploading", error: null, sent: 0 });
      const handle = startUpload(
        { endpoint, file: item.file, title: item.title, description: item.description, purpose },
        {
          onProgress: (sent, total) => patch(key, { sent, total }),
          onSuccess: (document) => {
            handles.current.delete(key);
            patch(key, { phase: "done", sent: item.file.size });
            latest.current(item, document);
          },
          onError: (message) => {
            handles.current.delete(key);
            patch(key, { phase: "failed", error: message });
          },
        },
      );
      handles.current.set(key, handle);
    },
    [patch],
  );

  return {
    items,
    add,
    edit: (key, change) => patch(key, change),
    start,
    pause(key) {
      const handle = handles.current.get(key);
      if (!handle) return;
      patch(key, { phase: "paused" });
      void handle.pause();
    },
    resume(key) {
      const handle = handles.current.get(key);
      if (!handle) return;
      patch(key, { phase: "uploading" });
      handle.resume();
    },
    cancel(key) {
      const handle = handles.current.get(key);
      handles.current.delete(key);
      patch(key, { phase: "cancelled", sent: 0 });
      if (handle) void handle.cancel();
    },
    remove(key) {
      const handle = handles.current.get(key);
      handles.current.delete(key);
      if (handle) void handle.cancel();
      setItems((list) => list.filter((item) => item.key !== key));
    },
    clearSettled() {
      setItems((list) => list.filter((item) => !["done", "failed", "cancelled"].includes(item.phase)));
    },
  };
}
