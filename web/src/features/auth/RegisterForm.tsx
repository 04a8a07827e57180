import { FormGroup, Intent, Radio, RadioGroup } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type Registration, type RegistrationInput, registrationSchema } from "@schema/validation/user";
import { usePasswordMinLength, useRegister } from "@web/data/rest";
import { parseApiError } from "@web/lib/apiErrors";
import { type SafeUser } from "@web/lib/auth";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { useEffect } from "react";
import { Controller, type Path, useForm } from "react-hook-form";
import { AuthFields, SubmitRow } from "./authFields";

/** Props of the registration form. */
export interface RegisterFormProps {
  onRegistered(user: SafeUser): void;
}

/** The form's fields: the registration schema's. */
const FIELDS: ReadonlySet<string> = new Set(Object.keys(registrationSchema.shape));

function isFormField(name: string): name is Path<RegistrationInput> {
  return FIELDS.has(name);
}

/**
 * Registration (spec §5 rules and messages, the schema the server uses too). A new account is signed
 * in at once; the server's field errors show under their fields.
 */
export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const registration = useRegister();
  const minLength = usePasswordMinLength();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegistrationInput, unknown, Registration>({
    resolver: zodResolver(withPasswordMinimum(registrationSchema, "password", minLength)),
    defaultValues: {
      username: "",
      email: "",
      password: "",
      firstName: "",
      lastName: "",
      phone: "",
      companyName: "",
      notes: "",
      userType: "prospect",
    },
  });

  const handleRegister = handleSubmit(async (input) => {
    const user = await registration.run(input);
    if (user) onRegistered(user);
  });

  // Field errors the server found (400 {errors: {field: [message]}}) show under their fields.
  useEffect(() => {
    const serverErrors = parseApiError(registration.error)?.body?.errors;
    if (!serverErrors) return;
    for (const [name, messages] of Object.entries(serverErrors)) {
      const message = messages[0];
      if (isFormField(name) && message) setError(name, { type: "server", message });
    }
  }, [registration.error, setError]);
  const fieldError = (name: keyof typeof errors): string | undefined => errors[name]?.message;

  return (
    <form onSubmit={handleRegister} noValidate aria-label="Register">
      <div className="portal-form-row">
        <AuthFields
          idPrefix="register"
          fields={[
            { name: "firstName", label: "First name", autoComplete: "given-name" },
            { name: "lastName", label: "Last name", autoComplete: "family-name" },
          ]}
          register={register}
          errors={errors}
        />
      </div>
      <AuthFields
        idPrefix="register"
        fields={[
          { name: "username", label: "Username", autoComplete: "username" },
          { name: "email", label: "Email", type: "email", autoComplete: "email" },
          {
            name: "password",
            label: "Password",
            type: "password",
            autoComplete: "new-password",
            hint: passwordHint(minLength),
          },
          { name: "phone", label: "Phone", type: "tel", autoComplete: "tel", optional: true },
          { name: "companyName", label: "Company", autoComplete: "organization", optional: true },
          { name: "notes", label: "Notes", optional: true, multiline: true },
        ]}
        register={register}
        errors={errors}
      />
      <Controller
        control={control}
        name="userType"
        render={({ field }) => (
          <FormGroup
            helperText={fieldError("userType")}
            intent={errors.userType ? Intent.DANGER : Intent.NONE}
          >
            <RadioGroup
              label="I am registering as"
              name={field.name}
              selectedValue={field.value}
              onChange={(event) => field.onChange(event.currentTarget.value)}
              inline
            >
              <Radio label="Prospect" value="prospect" />
              <Radio label="Client" value="client" />
            </RadioGroup>
          </FormGroup>
        )}
      />
      <SubmitRow text="Register" loading={registration.isPending} />
    </form>
  );
}
