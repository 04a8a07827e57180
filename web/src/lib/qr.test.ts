import QRCode from "qrcode";
import {
  makeQrDataUrl,
  proAppUserUrl,
  QR_DEFAULTS,
  QR_EMPTY_MESSAGE,
  QR_MAX_BYTES,
  QR_TOO_LARGE_MESSAGE,
  QrInputError,
  qrInputProblem,
} from "./qr";

/** Width and height of a PNG, read from its IHDR chunk. */
function pngSize(dataUrl: string): { width: number; height: number } {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("qrInputProblem", () => {
  it("refuses empty and blank input", () => {
    expect(qrInputProblem("")).toBe(QR_EMPTY_MESSAGE);
    expect(qrInputProblem("   \n")).toBe(QR_EMPTY_MESSAGE);
  });

  it("refuses input over the QR code's capacity, counting bytes not characters", () => {
    expect(qrInputProblem("a".repeat(QR_MAX_BYTES + 1))).toBe(QR_TOO_LARGE_MESSAGE);
    // 1,200 two-byte characters are 2,400 bytes.
    expect(qrInputProblem("é".repeat(1200))).toBe(QR_TOO_LARGE_MESSAGE);
  });

  it("accepts a Pro-app link and input right at the limit", () => {
    expect(qrInputProblem("https://pro.example/user/ESRT-ABCD1234")).toBeNull();
    expect(qrInputProblem("a".repeat(QR_MAX_BYTES))).toBeNull();
  });
});

describe("makeQrDataUrl", () => {
  it("rejects empty and too-large input with the user-facing message", async () => {
    await expect(makeQrDataUrl("")).rejects.toThrow(new QrInputError(QR_EMPTY_MESSAGE));
    await expect(makeQrDataUrl("x".repeat(5000))).rejects.toThrow(QR_TOO_LARGE_MESSAGE);
  });

  it("draws a 128 px black-on-white PNG with a one-module margin by default", async () => {
    const text = "https://pro.example/user/ESRT-ABCD1234";
    const url = await makeQrDataUrl(text);
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    expect(pngSize(url)).toEqual({ width: 128, height: 128 });
    // The same picture as the library draws with the spec's options, so the options reach it.
    const expected = await QRCode.toDataURL(text, {
      errorCorrectionLevel: "M",
      width: 128,
      margin: 1,
      color: { dark: "#000000", light: "#ffffff" },
    });
    expect(url).toBe(expected);
    const otherMargin = await QRCode.toDataURL(text, { errorCorrectionLevel: "M", width: 128, margin: 4 });
    expect(url).not.toBe(otherMargin);
  });

  it("takes another size when asked", async () => {
    const url = await makeQrDataUrl("https://pro.example/user/ESRT-1", { size: 256 });
    expect(pngSize(url)).toEqual({ width: 256, height: 256 });
    expect(QR_DEFAULTS).toEqual({ size: 128, margin: 1, dark: "#000000", light: "#ffffff" });
  });
});

describe("proAppUserUrl", () => {
  it("joins the Pro app address and the unique id", () => {
    expect(proAppUserUrl("https://pro.example", "ESRT-ABCD1234")).toBe(
      "https://pro.example/user/ESRT-ABCD1234",
    );
    expect(proAppUserUrl("https://pro.example/app/", "ESRT-1")).toBe("https://pro.example/app/user/ESRT-1");
  });

  it("escapes characters that would change the path", () => {
    expect(proAppUserUrl("https://pro.example", "a/b?c")).toBe("https://pro.example/user/a%2Fb%3Fc");
  });
});
