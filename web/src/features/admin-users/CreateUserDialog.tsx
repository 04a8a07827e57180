import { useMutation, useQuery } from "@apollo/client/react";
import {
  Button,
  Callout,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  Intent,
  Spinner,
} from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type NewUser, type NewUserInput, newUserSchema } from "@schema/validation/userAdmin";
import { thrownMessage } from "@web/features/sync/esrtSync";
import { CreateUserDocument, GrantableUserTypesDocument, type UserType } from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { FormField } from "@web/ui/FormField";
import { useReturnFocus } from "@web/ui/hooks";
import { readFieldsAnswer, USER_TYPE_LABELS } from "@web/ui/jobs/userJobs";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import "@web/ui/jobs/userJobs.css";
import { BusyDialog, DialogForm } from "@web/ui/FormDialog";

/** The text fields of a new user, in the order the form shows them. */
const NEW_USER_FIELDS: {
  name: "firstName" | "lastName" | "username" | "email" | "phone" | "companyName";
  label: string;
  type?: "email" | "tel";
  required?: true;
  autoFocus?: true;
}[] = [
  { name: "firstName", label: "First name", required: true, autoFocus: true },
  { name: "lastName", label: "Last name", required: true },
  { name: "username", label: "Username", required: true },
  { name: "email", label: "Email", type: "email", required: true },
  { name: "phone", label: "Phone", type: "tel" },
  { name: "companyName", label: "Company" },
];

/** Props of the create-user dialog (the user management page opens it from "Create user"). */
export interface CreateUserDialogProps {
  isOpen: boolean;
  onClose(): void;
  onCreated(userId: number): void;
}

const FIELDS = ["firstName", "lastName", "username", "email", "phone", "companyName", "userType"] as const;
type FieldName = (typeof FIELDS)[number];

function isField(name: string): name is FieldName {
  return (FIELDS as readonly string[]).includes(name);
}

/**
 * Creates a user of a type the signed-in administrator may grant, with the registration's rules and
 * words (the shared schema), and sends them an invitation to set their password (72 hours). The
 * server's refusals show under their fields.
 */
export function CreateUserDialog({ isOpen, onClose, onCreated }: CreateUserDialogProps) {
  if (!isOpen) return null;
  return <CreateUserForm onClose={onClose} onCreated={onCreated} />;
}

function CreateUserForm({ onClose, onCreated }: Omit<CreateUserDialogProps, "isOpen">) {
  useReturnFocus();
  const typeId = useId();
  const types = useQuery(GrantableUserTypesDocument, { fetchPolicy: "cache-first" });
  const [create, state] = useMutation(CreateUserDocument);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<{ email: string; username: string } | null>(null);
  const form = useForm<NewUserInput, unknown, NewUser>({
    resolver: zodResolver(newUserSchema),
    defaultValues: {
      firstName: "",
      lastName: "",
      username: "",
      email: "",
      phone: "",
      companyName: "",
      userType: "client",
    },
  });
  const errors = form.formState.errors;
  const grantable = types.data?.grantableUserTypes ?? [];

  const submit = form.handleSubmit(async (input) => {
    setProblem(null);
    const failure = "The user could not be created";
    try {
      const result = await create({ variables: { input } });
      const outcome = readFieldsAnswer(result.data?.createUser, failure);
      if (!outcome.ok) {
        let placed = false;
        for (const { field, message } of outcome.fields) {
          if (isField(field)) {
            form.setError(field, { message }, { shouldFocus: !placed });
            placed = true;
          }
        }
        if (!placed) setProblem(outcome.message);
        return;
      }
      showToast({
        title: "User created",
        description: `An invitation was sent to ${outcome.data.email}.`,
        intent: Intent.SUCCESS,
      });
      setCreated({ email: outcome.data.email, username: outcome.data.username });
      onCreated(outcome.data.id);
    } catch (caught) {
      setProblem(thrownMessage(caught, failure));
    }
  });

  const handleAnother = () => {
    setCreated(null);
    form.reset();
  };

  return (
    <BusyDialog title="Create user" busy={state.loading} onClose={onClose} className="user-dialog">
      {created ? (
        <>
          <DialogBody>
            <Callout intent={Intent.SUCCESS} role="status" title="Invitation sent">
              <p>
                {created.username} was created. An invitation to set a password went to {created.email}; its
                link works once, for 72 hours.
              </p>
            </Callout>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Create another" onClick={handleAnother} />
                <Button intent={Intent.PRIMARY} text="Done" onClick={onClose} autoFocus />
              </>
            }
          />
        </>
      ) : (
        <DialogForm
          label="Create user"
          submitText="Create and invite"
          backText="Cancel"
          busy={state.loading}
          problem={problem}
          onSubmit={submit}
          onBack={onClose}
        >
          <p>The user receives an email with a link to set their password (valid for 72 hours, once).</p>
          <div className="user-form-grid">
            {NEW_USER_FIELDS.map((field) => (
              <FormField
                key={field.name}
                label={field.label}
                type={field.type}
                required={field.required}
                autoFocus={field.autoFocus}
                registration={form.register(field.name)}
                error={errors[field.name]?.message}
              />
            ))}
          </div>
          <FormGroup
            label="User type"
            labelFor={typeId}
            intent={errors.userType ? Intent.DANGER : Intent.NONE}
            helperText={errors.userType?.message ?? "Only the types you may grant are offered."}
          >
            {types.loading && grantable.length === 0 ? (
              <Spinner size={16} aria-label="Loading the user types" />
            ) : (
              <HTMLSelect id={typeId} fill {...form.register("userType")}>
                {grantable.map((type: UserType) => (
                  <option key={type} value={type}>
                    {USER_TYPE_LABELS[type]}
                  </option>
                ))}
              </HTMLSelect>
            )}
          </FormGroup>
        </DialogForm>
      )}
    </BusyDialog>
  );
}
