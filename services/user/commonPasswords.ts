import { COMMON_PASSWORD_WORDS } from "./commonPasswordList";

// Refusal of common passwords (DECISIONS.md, Sessions and credentials). The spec's rules (8+
// characters, a digit, a special character) already rule out most leaked-password lists, so the
// passwords that get through them are common words dressed up: "P@ssw0rd1!", "Welcome2024!",
// "Qwerty123$". A password is refused when, after undoing the usual letter-for-symbol swaps and
// removing the digits and symbols around it, what is left is one of these words or keyboard runs.

const COMMON_BASES = `
password passwort passw pass admin administrator root user login welcome letmein hello
qwerty qwertyuiop qwertz azerty asdf asdfgh asdfghjkl zxcvbn zxcvbnm qazwsx qweasd abc abcd abcdef
abcdefg abcdefgh iloveyou love lovely loveme princess dragon monkey master shadow sunshine football
baseball basketball soccer hockey superman batman spiderman starwars pokemon trustno freedom
whatever secret secure security changeme default guest test tester testing temp temporary summer
winter spring autumn fall january february march april may june july august september october
november december monday friday sunday michael jennifer jordan michelle daniel andrew joshua
matthew charlie thomas jessica ashley hunter ranger buster tigger ginger pepper cookie chocolate
banana orange apple cheese coffee computer internet google facebook twitter instagram linkedin
microsoft windows apple samsung iphone android killer ninja hacker mustang harley ferrari porsche
corvette mercedes yankees cowboys lakers liverpool chelsea arsenal barcelona madrid jesus god
angel heaven blessed family mother father friend friends flower nicole daniela soccer1 purple
yellow silver golden diamond money dollar company business portal client clients customer
receivable receivables consulting account accounts billing invoice finance office manager
myspace mypass mypassword newpassword oldpassword passpass pa55word qwerasdf zaq xsw
`;

const COMMON = new Set(`${COMMON_BASES} ${COMMON_PASSWORD_WORDS}`.split(/\s+/).filter((w) => w.length > 0));

// Keyboard rows and columns (US layout) and the alphabet: runs along them ("qwer", "1qaz",
// "zaq1", "abcd", "9876") are walks, not secrets.
const SEQUENCES = [
  "`1234567890-=",
  "qwertyuiop[]",
  "asdfghjkl;'",
  "zxcvbnm,./",
  "1qaz",
  "2wsx",
  "3edc",
  "4rfv",
  "5tgb",
  "6yhn",
  "7ujm",
  "8ik,",
  "9ol.",
  "0p;/",
  "qazwsxedcrfvtgbyhnujmik,ol.p;/",
  "abcdefghijklmnopqrstuvwxyz",
  "01234567890",
];
const RUNS = [...SEQUENCES, ...SEQUENCES.map((seq) => [...seq].reverse().join(""))];

/** The shifted digit row read as its digits ("!@#" is "123" typed with shift). */
const SHIFTED: Record<string, string> = {
  "!": "1",
  "@": "2",
  "#": "3",
  $: "4",
  "%": "5",
  "^": "6",
  "&": "7",
  "*": "8",
  "(": "9",
  ")": "0",
};

function isRun(segment: string): boolean {
  return /^(.)\1+$/.test(segment) || RUNS.some((run) => run.includes(segment));
}

/** Whether `text` is made only of keyboard or alphabet runs of 3 or more keys (or repeats). */
function isWalk(text: string): boolean {
  if (text.length < 3) return false;
  const reachable: boolean[] = new Array<boolean>(text.length + 1).fill(false);
  reachable[0] = true;
  for (let i = 0; i < text.length; i++) {
    if (!reachable[i]) continue;
    for (let j = i + 3; j <= text.length; j++) {
      if (isRun(text.slice(i, j))) reachable[j] = true;
    }
  }
  return reachable[text.length] === true;
}

/** Leading and trailing symbols removed ("!QAZ2wsx" → "qaz2wsx"), shifted or not. */
function walkCandidates(password: string): string[] {
  const lower = password.toLowerCase();
  const unshifted = [...lower].map((c) => SHIFTED[c] ?? c).join("");
  const edges = /^[^a-z0-9]+|[^a-z0-9]+$/g;
  return [lower.replace(edges, ""), unshifted.replace(edges, ""), unshifted, core(lower)];
}

/**
 * Whether a password is a keyboard walk ("1qaz2wsx!", "123qwe!@#", "1234qwer!"), a run of digits
 * only ("12345678!"), once the symbols around it are removed.
 */
function isWalkOrDigits(password: string): boolean {
  return walkCandidates(password).some((c) => /^[0-9]+$/.test(c) || isWalk(c));
}

const LEET: Record<string, string> = {
  "@": "a",
  "4": "a",
  "3": "e",
  "1": "i",
  "!": "i",
  "0": "o",
  $: "s",
  "5": "s",
  "7": "t",
};

function deLeet(text: string): string {
  return [...text].map((c) => LEET[c] ?? c).join("");
}

function core(text: string): string {
  return text.toLowerCase().replace(/^[^a-z]+|[^a-z]+$/g, "");
}

/**
 * Whether a password is one of the most common ones or a disguise of one: lower-cased, with leet
 * swaps undone and the digits and symbols around it removed, it is a listed word, a keyboard walk,
 * digits only or one repeated character. Never logs it.
 */
export function isCommonPassword(password: string): boolean {
  if (isWalkOrDigits(password)) return true;
  const lower = password.toLowerCase();
  const candidates = [core(lower), core(deLeet(lower)), core(deLeet(lower.replace(/[^a-z0-9@$!]+$/g, "")))];
  // "Password123!": stripping the digits and symbols at the ends leaves "password"
  const stripped = lower.replace(/^[^a-z@$]+|[^a-z]+$/g, "");
  candidates.push(core(deLeet(stripped)));
  return candidates.some((c) => c.length > 0 && (COMMON.has(c) || /^(.)\1+$/.test(c)));
}

export const COMMON_PASSWORD_MESSAGE = "This password is too common. Please choose another.";
