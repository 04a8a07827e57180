import {
  uploadErrorMessage,
  uploadedDocument,
  uploadFingerprint,
  uploadMetadata,
  uploadRefusedForGood,
} from "./upload";

const file = { name: "Tax return.pdf", type: "application/pdf", size: 1234, lastModified: 1_700_000_000_000 };

/** An error as tus-js-client reports a refused request. */
const refused = (status: number, body: string) => ({
  message: `tus: unexpected response while creating upload, response code: ${status}`,
  originalResponse: { getStatus: () => status, getBody: () => body },
});

describe("tus uploads", () => {
  it("declares the title, description, file name and purpose as Upload-Metadata", () => {
    const asFile = file as unknown as File;
    expect(
      uploadMetadata({ file: asFile, title: "  Return ", description: " ", purpose: { kind: "new" } }),
    ).toEqual({
      filename: "Tax return.pdf",
      title: "Return",
    });
    expect(
      uploadMetadata({
        file: asFile,
        title: "Return",
        description: "2031",
        purpose: { kind: "resubmit", documentId: 7 },
      }),
    ).toEqual({ filename: "Tax return.pdf", title: "Return", description: "2031", documentId: "7" });
    expect(
      uploadMetadata({ file: asFile, title: "Report", purpose: { kind: "report", clientId: 12 } }),
    ).toEqual({
      filename: "Tax return.pdf",
      title: "Report",
      clientId: "12",
    });
  });

  it("keeps one resumable upload per file and purpose", () => {
    const a = uploadFingerprint(file, { kind: "new" }, "/api/uploads");
    expect(a.startsWith("portal-doc-new-Tax return.pdf-")).toBe(true);
    expect(uploadFingerprint(file, { kind: "new" }, "/api/uploads")).toBe(a);
    expect(uploadFingerprint(file, { kind: "resubmit", documentId: 3 }, "/api/uploads")).not.toBe(a);
    expect(uploadFingerprint({ ...file, lastModified: 1 }, { kind: "new" }, "/api/uploads")).not.toBe(a);
    expect(uploadFingerprint(file, { kind: "report", clientId: 3 }, "/api/uploads")).not.toBe(
      uploadFingerprint(file, { kind: "report", clientId: 4 }, "/api/uploads"),
    );
  });

  it("forgets an upload the server refused for good, and keeps one that may continue", () => {
    for (const status of [400, 403, 404, 410, 413, 415, 422]) {
      expect([status, uploadRefusedForGood(refused(status, "refused"))]).toEqual([status, true]);
    }
    for (const status of [401, 408, 409, 423, 429, 500, 503]) {
      expect([status, uploadRefusedForGood(refused(status, "later"))]).toEqual([status, false]);
    }
    // a dropped connection has no answer: the upload may continue
    expect(uploadRefusedForGood(new Error("tus: failed to upload chunk"))).toBe(false);
    expect(uploadRefusedForGood(null)).toBe(false);
  });

  it("shows the server's own message when it refuses an upload", () => {
    expect(uploadErrorMessage(refused(415, ".exe files are not allowed. Allowed types: pdf\n"))).toBe(
      ".exe files are not allowed. Allowed types: pdf",
    );
    expect(
      uploadErrorMessage(
        refused(422, "The file's content is not a PDF document (it looks like an HTML page)"),
      ),
    ).toBe("The file's content is not a PDF document (it looks like an HTML page)");
    expect(
      uploadErrorMessage(refused(403, '{"message":"You may only resubmit your own rejected documents"}')),
    ).toBe("You may only resubmit your own rejected documents");
  });

  it("falls back to a plain line for an error page, a dropped connection or an ended session", () => {
    expect(uploadErrorMessage(refused(502, "<html><body>Bad gateway</body></html>"))).toBe(
      "The upload failed. Check your connection and try again.",
    );
    expect(uploadErrorMessage(refused(413, ""))).toBe("The file is too large.");
    expect(uploadErrorMessage(refused(401, "Unauthorized"))).toBe(
      "Your session has ended. Please log in again.",
    );
    expect(uploadErrorMessage(new Error("tus: failed to upload chunk"))).toBe(
      "The upload failed. Check your connection and try again.",
    );
    expect(uploadErrorMessage(null)).toBe("The upload failed. Check your connection and try again.");
  });

  it("reads the document from the final PATCH's answer", () => {
    expect(uploadedDocument('{"document":{"id":5,"title":"Return","status":"pending"}}')).toEqual({
      id: 5,
      title: "Return",
      status: "pending",
    });
    expect(uploadedDocument("")).toBeNull();
    expect(uploadedDocument('{"document":{}}')).toBeNull();
  });
});
