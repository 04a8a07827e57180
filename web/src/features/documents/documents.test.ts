import { storageSettingsSchema } from "@schema/validation/document";
import {
  appendPage,
  approvableSelection,
  bytesToMegabytes,
  clientLabel,
  dayRange,
  draftIsValid,
  draftProblems,
  megabytesToBytes,
  pdfOpenError,
  pdfPreviewError,
  previewKind,
  progressLabel,
  titleFromFileName,
} from "./documents";

const policy = { maxFileSize: 10_000_000, allowedFileTypes: ["pdf", "png", "docx"] };

describe("a file chosen for upload", () => {
  it("is titled from its name without the extension", () => {
    expect(titleFromFileName("Tax return 2031.pdf")).toBe("Tax return 2031");
    expect(titleFromFileName("archive.tar.gz")).toBe("archive.tar");
    expect(titleFromFileName("C:\\Users\\ada\\invoice.PDF")).toBe("invoice");
    expect(titleFromFileName(".env")).toBe(".env");
    expect(titleFromFileName("README")).toBe("README");
    expect(titleFromFileName(`${"x".repeat(300)}.pdf`)).toHaveLength(200);
  });

  it("is checked with the server's messages before any byte is sent", () => {
    const ok = draftProblems({ file: { name: "a.pdf", size: 10 }, title: "A", description: "" }, policy);
    expect(ok).toEqual({ file: null, title: null, description: null });
    expect(draftIsValid(ok)).toBe(true);

    const wrongType = draftProblems(
      { file: { name: "a.exe", size: 10 }, title: "A", description: "" },
      policy,
    );
    expect(wrongType.file).toBe(".exe files are not allowed. Allowed types: pdf, png, docx");
    const tooLarge = draftProblems(
      { file: { name: "a.pdf", size: 10_000_001 }, title: "A", description: "" },
      policy,
    );
    expect(tooLarge.file).toBe("The file is larger than the maximum of 10 MB");
    const empty = draftProblems({ file: { name: "a.pdf", size: 0 }, title: "A", description: "" }, policy);
    expect(empty.file).toBe("The file is empty");
    const untitled = draftProblems(
      { file: { name: "a.pdf", size: 5 }, title: "   ", description: "" },
      policy,
    );
    expect(untitled.title).toBe("Title is required");
    expect(draftIsValid(untitled)).toBe(false);
    const wordy = draftProblems(
      { file: { name: "a.pdf", size: 5 }, title: "A", description: "d".repeat(2001) },
      policy,
    );
    expect(wordy.description).toBe("Description must be less than 2000 characters");
  });
});

describe("the lists", () => {
  it("appends a further page without repeating a document already shown", () => {
    const first = { nodes: [{ id: 3 }, { id: 2 }], endCursor: "c2", hasNextPage: true, totalCount: 4 };
    const next = { nodes: [{ id: 2 }, { id: 1 }], endCursor: "c1", hasNextPage: false, totalCount: 4 };
    expect(appendPage(first, next)).toEqual({
      nodes: [{ id: 3 }, { id: 2 }, { id: 1 }],
      endCursor: "c1",
      hasNextPage: false,
      totalCount: 4,
    });
  });

  it("turns a range of days into the filter's instants, the end exclusive", () => {
    expect(dayRange("", "")).toEqual({});
    const range = dayRange("2032-03-08", "2032-03-08");
    expect(range?.from).toBe(new Date(2032, 2, 8).toISOString());
    expect(range?.to).toBe(new Date(2032, 2, 9).toISOString());
    expect(dayRange("2032-03-09", "2032-03-08")).toBeNull();
    expect(dayRange("2032-02-30", "")).toBeNull();
    expect(dayRange("", "2032-12-31")?.to).toBe(new Date(2033, 0, 1).toISOString());
  });

  it("approves in bulk only the selected documents still pending on screen", () => {
    const shown = [
      { id: 1, status: "pending" as const },
      { id: 2, status: "approved" as const },
      { id: 3, status: "pending" as const },
    ];
    expect(approvableSelection(new Set([1, 2, 4]), shown)).toEqual([1]);
    expect(approvableSelection(new Set(), shown)).toEqual([]);
  });

  it("previews PDFs and images only, and only with a preview URL", () => {
    expect(previewKind({ previewUrl: "/api/documents/1/preview", mimeType: "application/pdf" })).toBe("pdf");
    expect(previewKind({ previewUrl: "/api/documents/1/preview", mimeType: "image/png" })).toBe("image");
    expect(previewKind({ previewUrl: null, mimeType: "application/pdf" })).toBeNull();
    expect(previewKind({ previewUrl: "/x", mimeType: "text/csv" })).toBeNull();
  });

  it("says why a PDF preview failed, by the endpoint's status or pdf.js's exception", () => {
    expect(pdfPreviewError(404)).toBe("The file was not found.");
    expect(pdfPreviewError(415)).toBe("This file cannot be previewed.");
    expect(pdfPreviewError(403)).toBe("You may not see this file.");
    expect(pdfPreviewError(500)).toBe("The preview could not be loaded (error 500).");
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(pdfOpenError(named("PasswordException", "No password given"))).toBe(
      "The PDF is protected by a password.",
    );
    expect(pdfOpenError(named("InvalidPDFException", "Invalid PDF structure."))).toBe(
      "The file is not a PDF the preview can read.",
    );
    expect(pdfOpenError(new Error("The file was not found."))).toBe("The file was not found.");
    expect(pdfOpenError("odd")).toBe("The preview could not be shown.");
  });

  it("names clients with their company and email", () => {
    const ada = { firstName: "Ada", lastName: "Lovelace", username: "ada", email: "ada@x.test" };
    expect(clientLabel({ ...ada, companyName: "Engines Ltd" })).toBe(
      "Ada Lovelace (Engines Ltd) · ada@x.test",
    );
    expect(clientLabel({ ...ada, firstName: "", lastName: "", companyName: null })).toBe("ada · ada@x.test");
  });

  it("reads an upload's progress", () => {
    const fmt = (n: number) => `${n} B`;
    expect(progressLabel(0, 0, fmt)).toBe("Starting…");
    expect(progressLabel(33, 100, fmt)).toBe("33 B of 100 B (33%)");
  });
});

describe("the storage form's size in MB", () => {
  it("converts MB to bytes and back, rounding to whole bytes", () => {
    expect(megabytesToBytes(10)).toBe(10_000_000);
    expect(megabytesToBytes(1.5)).toBe(1_500_000);
    expect(megabytesToBytes(0.999999)).toBe(999_999);
    expect(megabytesToBytes(0.1 + 0.2)).toBe(300_000);
    expect(bytesToMegabytes(10_000_000)).toBe(10);
  });

  it("refuses 0.999999 MB and an empty type list with the shared schema's messages", () => {
    const base = { storageType: "local" as const, allowedFileTypes: ["pdf"], maxFileSize: 10_000_000 };
    const small = storageSettingsSchema.safeParse({ ...base, maxFileSize: megabytesToBytes(0.999999) });
    expect(small.success ? [] : small.error.issues.map((i) => i.message)).toEqual([
      "Maximum file size must be at least 1,000,000 bytes",
    ]);
    const none = storageSettingsSchema.safeParse({ ...base, allowedFileTypes: [] });
    expect(none.success ? [] : none.error.issues.map((i) => i.message)).toEqual([
      "At least one file type must be allowed",
    ]);
    const blank = storageSettingsSchema.safeParse({ ...base, maxFileSize: Number.NaN });
    expect(blank.success ? [] : blank.error.issues.map((i) => i.message)).toEqual([
      "Maximum file size must be at least 1,000,000 bytes",
    ]);
    expect(storageSettingsSchema.safeParse({ ...base, maxFileSize: megabytesToBytes(1) }).success).toBe(true);
  });
});
