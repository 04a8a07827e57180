// The page's address alone, for the shell's enrolment redirect: importing it does not pull the rest of
// two-factor sign-in's words and rules (./twoFactor) into the app's first page.

/** The page of two-factor sign-in (the user menu's "Two-factor sign-in", and the enrolment page). */
export const TWO_FACTOR_PATH = "/two-factor";
