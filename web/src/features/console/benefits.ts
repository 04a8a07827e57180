/** One item of the Benefits tab's accordion. */
export interface Benefit {
  title: string;
  description: string;
}

/** The five benefits of ESRT Pro, in the spec's order (spec §2, Benefits tab). */
export const BENEFITS: readonly Benefit[] = [
  {
    title: "Billing Management",
    description:
      "Create, send and track invoices in one place, and see at a glance which are paid, due or overdue.",
  },
  {
    title: "Net Terms Management",
    description: "Set net 30, 60 or 90 terms per customer, with reminders before and after each due date.",
  },
  {
    title: "Insurance Billing",
    description: "Prepare and follow insurance claims, and match payments and denials to the right accounts.",
  },
  {
    title: "Pre-Write Off Collections",
    description:
      "Recover aging balances with a structured follow-up before an account is written off as bad debt.",
  },
  {
    title: "Document Management",
    description: "Keep statements, contracts and correspondence with our team together and easy to find.",
  },
];

/** The getting-started steps of the Benefits tab. */
export const GETTING_STARTED_STEPS: readonly string[] = [
  "Save your portal username and password: ESRT Pro uses the same credentials.",
  "Open ESRT Pro with the button below or the QR code on the Welcome tab.",
  "Complete your company profile and add your customers.",
  "Import or enter your open invoices and choose their terms.",
  "Leave a note for our team or book a consultation to review your receivables.",
];
