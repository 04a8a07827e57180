// STUB: replaced at merge by BULK
import type { UserFilter } from "../../../generated/graphql";

export type BulkSelection =
  | { kind: "ids"; ids: number[] }
  | { kind: "filter"; filter: UserFilter; total: number };

export interface BulkActionsDialogProps {
  isOpen: boolean;
  selection: BulkSelection;
  onClose(): void;
  onDone(): void;
}

export function BulkActionsDialog(_props: BulkActionsDialogProps) {
  return null;
}
