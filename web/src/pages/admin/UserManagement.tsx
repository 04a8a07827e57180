// STUB: replaced at merge by DIR
import { Button, ButtonGroup, H1 } from "@blueprintjs/core";
import { useState } from "react";
import { BulkActionsDialog } from "./users/BulkActionsDialog";
import { CreateUserDialog } from "./users/CreateUserDialog";
import { ImportUsersDialog } from "./users/ImportUsersDialog";

/** User Management: the toolbar that opens the create, import and bulk dialogs (the table is DIR's). */
export function UserManagementPage() {
  const [open, setOpen] = useState<"create" | "import" | "bulk" | null>(null);
  const params = new URLSearchParams(window.location.search);
  const ids = (params.get("ids") ?? "")
    .split(",")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const close = () => setOpen(null);
  return (
    <section className="portal-page">
      <H1>User Management</H1>
      <ButtonGroup>
        <Button text="Create user" onClick={() => setOpen("create")} />
        <Button text="Import" onClick={() => setOpen("import")} />
        <Button text="Bulk actions" onClick={() => setOpen("bulk")} disabled={ids.length === 0} />
      </ButtonGroup>
      <CreateUserDialog isOpen={open === "create"} onClose={close} onCreated={() => undefined} />
      <ImportUsersDialog isOpen={open === "import"} onClose={close} onDone={() => undefined} />
      <BulkActionsDialog
        isOpen={open === "bulk"}
        selection={{ kind: "ids", ids }}
        onClose={close}
        onDone={() => undefined}
      />
    </section>
  );
}
