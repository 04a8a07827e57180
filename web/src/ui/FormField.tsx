import { FormGroup, InputGroup, Intent } from "@blueprintjs/core";
import { useId } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

/** Props of one text input of the user forms. */
export interface FormFieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  required?: boolean;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A labelled text input whose error is shown under it and tied to it for screen readers. */
export function FormField({
  label,
  registration,
  error,
  required,
  type = "text",
  autoComplete,
  autoFocus,
}: FormFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const { ref, ...field } = registration;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      labelInfo={required ? "(required)" : "(optional)"}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error ? <span id={helpId}>{error}</span> : undefined}
    >
      <InputGroup
        id={id}
        type={type}
        fill
        autoComplete={autoComplete ?? "off"}
        spellCheck={false}
        autoFocus={autoFocus}
        intent={error ? Intent.DANGER : Intent.NONE}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? helpId : undefined}
        {...field}
        inputRef={ref}
      />
    </FormGroup>
  );
}
