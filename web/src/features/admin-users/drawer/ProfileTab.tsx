import "@web/ui/toolbars.css";
import { useMutation } from "@apollo/client/react";
import { Button, Callout, FormGroup, InputGroup, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type AdminProfile, type AdminProfileInput, adminProfileSchema } from "@schema/validation/adminUser";
import { readAnswer, thrownMessage } from "@web/features/sync/esrtSync";
import { AdminUpdateUserProfileDocument, type AdminUserFieldsFragment } from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { ServerProblem } from "@web/ui/ConfirmDialog";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { fieldOfMessage, PROFILE_FIELDS } from "./userDrawer";

/** Props of the profile tab. */
export interface ProfileTabProps {
  user: AdminUserFieldsFragment;
  /** whether the signed-in administrator may change this account */
  editable: boolean;
  onSaved(): void;
}

function valuesOf(user: AdminUserFieldsFragment): AdminProfileInput {
  return {
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone ?? "",
    companyName: user.companyName ?? "",
  };
}

/**
 * The user's profile as an administrator edits it: the registration form's rules and messages (the
 * shared schema), checked as the person types after a first submit, and the server's refusals
 * (a name or address already taken) shown at their field. A new email address must be verified again.
 */
export function ProfileTab({ user, editable, onSaved }: ProfileTabProps) {
  const baseId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [save, saveState] = useMutation(AdminUpdateUserProfileDocument);
  const form = useForm<AdminProfileInput, unknown, AdminProfile>({
    resolver: zodResolver(adminProfileSchema),
    defaultValues: valuesOf(user),
  });
  const { errors, isDirty } = form.formState;

  const submit = form.handleSubmit(async (profile) => {
    setProblem(null);
    const failure = "The profile could not be saved";
    try {
      const result = await save({
        variables: {
          userId: user.id,
          input: { ...profile, phone: profile.phone ?? null, companyName: profile.companyName ?? null },
        },
      });
      const outcome = readAnswer(result.data?.adminUpdateUserProfile, failure);
      if (!outcome.ok) {
        const field = fieldOfMessage(outcome.message);
        if (field) form.setError(field, { type: "server", message: outcome.message }, { shouldFocus: true });
        else setProblem(outcome.message);
        return;
      }
      form.reset(valuesOf(outcome.data));
      showToast({
        title: "Profile saved",
        description:
          outcome.data.email !== user.email
            ? `A verification link was sent to ${outcome.data.email}`
            : `${outcome.data.firstName} ${outcome.data.lastName}`,
        intent: Intent.SUCCESS,
      });
      onSaved();
    } catch (caught) {
      setProblem(thrownMessage(caught, failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Profile" className="user-drawer-profile">
      {editable ? null : (
        <Callout intent={Intent.PRIMARY} compact className="user-drawer-note">
          Only a main administrator may change an administrator's account.
        </Callout>
      )}
      <div className="user-drawer-fields">
        {PROFILE_FIELDS.map((field) => {
          const id = `${baseId}-${field.name}`;
          const message = errors[field.name]?.message;
          const { ref, ...registered } = form.register(field.name);
          return (
            <FormGroup
              key={field.name}
              label={field.label}
              labelFor={id}
              labelInfo={field.required ? "(required)" : undefined}
              intent={message ? Intent.DANGER : Intent.NONE}
              helperText={message ? <span id={`${id}-error`}>{message}</span> : undefined}
            >
              <InputGroup
                id={id}
                type={field.name === "email" ? "email" : field.name === "phone" ? "tel" : "text"}
                autoComplete={field.autoComplete}
                spellCheck={false}
                fill
                readOnly={!editable}
                intent={message ? Intent.DANGER : Intent.NONE}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? `${id}-error` : undefined}
                {...registered}
                inputRef={ref}
              />
            </FormGroup>
          );
        })}
      </div>
      {problem ? <ServerProblem message={problem} /> : null}
      {editable ? (
        <div className="user-drawer-form-actions">
          <Button
            text="Discard changes"
            disabled={!isDirty || saveState.loading}
            onClick={() => {
              setProblem(null);
              form.reset(valuesOf(user));
            }}
          />
          <Button type="submit" intent={Intent.PRIMARY} text="Save profile" loading={saveState.loading} />
        </div>
      ) : null}
    </form>
  );
}
