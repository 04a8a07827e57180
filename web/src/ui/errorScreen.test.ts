import { errorScreenText, isChunkLoadError, requestIdLine } from "./errorScreen";

describe("isChunkLoadError", () => {
  it("recognises each browser's failed dynamic import and Vite's CSS preload failure", () => {
    for (const message of [
      "Failed to fetch dynamically imported module: https://portal.example/assets/Auth-abc123.js",
      "error loading dynamically imported module: https://portal.example/assets/Auth-abc123.js",
      "Importing a module script failed.",
      "Unable to preload CSS for /assets/Auth-abc123.css",
    ]) {
      expect(isChunkLoadError(new TypeError(message))).toBe(true);
    }
  });

  it("takes a render error, a non-Error and a network failure of a data call for what they are", () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(
      false,
    );
    expect(isChunkLoadError(new TypeError("Failed to fetch"))).toBe(false);
    expect(isChunkLoadError("Failed to fetch dynamically imported module")).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

describe("the error screen's text", () => {
  it("offers a reload for a chunk gone after a deploy", () => {
    const text = errorScreenText(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"));
    expect(text.title).toBe("A new version of the portal is available");
    expect(text.description).toMatch(/Reload/);
  });

  it("says something went wrong for a render error", () => {
    expect(errorScreenText(new Error("boom")).title).toBe("Something went wrong");
  });

  it("names the last request id, or says there is none", () => {
    expect(requestIdLine("req-1234abcd")).toBe("Request id: req-1234abcd");
    expect(requestIdLine(undefined)).toBe("no request id");
  });
});
