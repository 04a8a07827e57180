// STUB: replaced at merge by ONE
import type { JSX } from "react";

export interface UserDrawerProps {
  userId: number | null;
  onClose(): void;
  onChanged(): void;
}

export function UserDrawer(_props: UserDrawerProps): JSX.Element | null {
  return null;
}
