import type { ReactNode } from "react";

/**
 * A tab's id and title, enabled outright: Blueprint's Tab then sets aria-disabled="false", which it
 * no longer sets by default under React 19. Spread into a `<Tab>` (Tabs reads its children's props).
 */
export function tabOf(id: string, title: ReactNode) {
  return { id, title, disabled: false };
}
