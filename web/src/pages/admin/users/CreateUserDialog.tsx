// STUB: replaced at merge by BULK
export interface CreateUserDialogProps {
  isOpen: boolean;
  onClose(): void;
  onCreated(userId: number): void;
}

export function CreateUserDialog(_props: CreateUserDialogProps) {
  return null;
}
