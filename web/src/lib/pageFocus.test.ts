import { documentTitle } from "./pageFocus";

describe("documentTitle", () => {
  it("names the page first, then the portal", () => {
    expect(documentTitle("Login / Register", "ESRT")).toBe("Login / Register – ESRT Portal");
    expect(documentTitle("Appointment Administration", "Acme")).toBe(
      "Appointment Administration – Acme Portal",
    );
  });
});
