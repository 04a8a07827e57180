import { fetchSecurityQuestions } from "./securityQuestions";

describe("fetchSecurityQuestions (spec §7)", () => {
  it("passes on failures other than 404, for the 'Failed to load security questions' toast", async () => {
    const load = jest.fn(async () => {
      throw new Error('403: {"message":"Forbidden"}');
    });
    await expect(fetchSecurityQuestions(7, load)).rejects.toThrow("403:");
  });

  it("gives none for a 404", async () => {
    const load = jest.fn(async () => {
      throw new Error('404: {"message":"No security questions"}');
    });
    await expect(fetchSecurityQuestions(7, load)).resolves.toBeNull();
  });

  it("returns the questions of the user asked for", async () => {
    const payload = { userId: 7, questions: ["First pet?", "Birth city?", "Colour?"] };
    const load = jest.fn(async () => payload);
    await expect(fetchSecurityQuestions(7, load)).resolves.toEqual(payload);
    expect(load).toHaveBeenCalledWith("/api/security-questions/7");
  });
});
