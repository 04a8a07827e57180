import { isCommonPassword } from "./commonPasswords";

describe("isCommonPassword", () => {
  it.each([
    "P@ssw0rd1!",
    "Password123!",
    "Welcome2024!",
    "Qwerty123$",
    "Summer2024!",
    "Letmein#1",
    "aaaa1111!",
    "12345678!",
    "123456789!",
    "1qaz2wsx!",
    "zaq12wsx!",
    "123qwe!@#",
    "1234qwer!",
    "Qazwsx123!",
    "!QAZ2wsx",
    "98765432!",
    "Abc12345!",
    "Trustno1!",
    "Monkey123!",
    "Baseball1!",
    "Iloveyou2!",
  ])("refuses %s", (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each([
    "Test-Password-1!",
    "Correct-horse-9",
    "Xk9#mvTq",
    "blue-Kettle-42!",
    "Fresh-Lantern-58!",
    "Quiet-Harbour-64!",
    "New-Secret-77!",
    "Wrong-Password-1!",
    "Squatter-Pass-9!",
    "19-Oak-Tree-Lane!",
  ])("accepts %s", (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});
