// STUB: replaced at merge by BULK
export interface ImportUsersDialogProps {
  isOpen: boolean;
  onClose(): void;
  onDone(): void;
}

export function ImportUsersDialog(_props: ImportUsersDialogProps) {
  return null;
}
