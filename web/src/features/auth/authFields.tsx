import { Button, Intent } from "@blueprintjs/core";
import { serverMessage } from "@web/lib/apiErrors";
import { showToast } from "@web/lib/toast";
import { TextField, type TextFieldProps } from "@web/ui/TextField";
import type { ReactNode } from "react";
import type { FieldErrors, FieldValues, Path, UseFormRegister } from "react-hook-form";
import type { PasswordPair } from "./passwordPair";

/** One text field of an auth form; its id is the form's prefix and its name. */
export interface AuthField<N extends string> extends Omit<TextFieldProps, "id" | "registration" | "error"> {
  name: N;
}

/** Props of {@link AuthFields}. */
export interface AuthFieldsProps<T extends FieldValues> {
  /** the ids' prefix: "login" gives "login-password" */
  idPrefix: string;
  fields: readonly AuthField<Path<T>>[];
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}

/** The text fields of an auth form, each bound to the form with its validation message under it. */
export function AuthFields<T extends FieldValues>({
  idPrefix,
  fields,
  register,
  errors,
}: AuthFieldsProps<T>) {
  const messages = errors as Record<string, { message?: string } | undefined>;
  return (
    <>
      {fields.map(({ name, ...field }) => (
        <TextField
          key={name}
          id={`${idPrefix}-${name}`}
          {...field}
          registration={register(name)}
          error={messages[name]?.message}
        />
      ))}
    </>
  );
}

/** Props of {@link SubmitRow}. */
export interface SubmitRowProps {
  text: string;
  loading: boolean;
  /** links beside the button */
  children?: ReactNode;
}

/** The row under an auth form: its primary submit button and the links beside it. */
export function SubmitRow({ text, loading, children }: SubmitRowProps) {
  return (
    <div className="portal-actions">
      <Button type="submit" intent={Intent.PRIMARY} text={text} loading={loading} />
      {children}
    </div>
  );
}

/** The fields of a new password typed twice, with the policy's hint under the first. */
export function passwordPairFields(
  labels: [string, string],
  hint: string | undefined,
): AuthField<keyof PasswordPair>[] {
  return [
    { name: "password", label: labels[0], type: "password", autoComplete: "new-password", hint },
    { name: "confirmPassword", label: labels[1], type: "password", autoComplete: "new-password" },
  ];
}

/** The failure toast of a REST call: the title, and the server's message or the title again. */
export function failureToast(title: string): (error: unknown) => void {
  return (error) => showToast({ title, description: serverMessage(error, title), intent: "destructive" });
}
