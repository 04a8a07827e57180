import { FormGroup, InputGroup, Intent, TextArea } from "@blueprintjs/core";
import type { UseFormRegisterReturn } from "react-hook-form";

/** Props of one labelled text input bound to react-hook-form. */
export interface TextFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  type?: "text" | "email" | "password" | "tel" | "url" | "number";
  autoComplete?: string;
  optional?: boolean;
  multiline?: boolean;
  /** shown under the field while it has no error */
  hint?: string;
  /** focus the field when it appears (the only field of a step) */
  autoFocus?: boolean;
  /** the on-screen keyboard to offer: "numeric" for a code */
  inputMode?: "numeric" | "text";
  placeholder?: string;
  /** the bounds of a number field */
  min?: number;
  max?: number;
  step?: number;
  /** the input's class: "security-number" */
  className?: string;
}

/** A labelled input with the field's validation message under it (spec §5 messages). */
export function TextField({
  id,
  label,
  registration,
  error,
  type = "text",
  autoComplete,
  optional = false,
  multiline = false,
  hint,
  autoFocus,
  inputMode,
  placeholder,
  min,
  max,
  step,
  className,
}: TextFieldProps) {
  const { ref, ...rest } = registration;
  const intent = error ? Intent.DANGER : Intent.NONE;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      labelInfo={optional ? "(optional)" : undefined}
      helperText={error ?? hint}
      intent={intent}
    >
      {multiline ? (
        <TextArea
          id={id}
          {...rest}
          inputRef={ref}
          intent={intent}
          fill
          aria-invalid={error ? true : undefined}
        />
      ) : (
        <InputGroup
          id={id}
          type={type}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          inputMode={inputMode}
          placeholder={placeholder}
          min={min}
          max={max}
          step={step}
          className={className}
          {...rest}
          inputRef={ref}
          intent={intent}
          aria-invalid={error ? true : undefined}
        />
      )}
    </FormGroup>
  );
}
