import { Button, FormGroup, Intent, Radio, RadioGroup } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type Registration, type RegistrationInput, registrationSchema } from "@schema/validation/user";
import { usePasswordMinLength, useRegister } from "@web/data/rest";
import { parseApiError } from "@web/lib/apiErrors";
import { type SafeUser } from "@web/lib/auth";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { TextField } from "@web/ui/TextField";
import { useEffect } from "react";
import { Controller, type Path, useForm } from "react-hook-form";

/** Props of the registration form. */
export interface RegisterFormProps {
  onRegistered(user: SafeUser): void;
}

const FIELDS: ReadonlySet<string> = new Set([
  "username",
  "email",
  "password",
  "firstName",
  "lastName",
  "phone",
  "companyName",
  "notes",
  "userType",
]);

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
        <TextField
          id="register-firstName"
          label="First name"
          autoComplete="given-name"
          registration={register("firstName")}
          error={fieldError("firstName")}
        />
        <TextField
          id="register-lastName"
          label="Last name"
          autoComplete="family-name"
          registration={register("lastName")}
          error={fieldError("lastName")}
        />
      </div>
      <TextField
        id="register-username"
        label="Username"
        autoComplete="username"
        registration={register("username")}
        error={fieldError("username")}
      />
      <TextField
        id="register-email"
        label="Email"
        type="email"
        autoComplete="email"
        registration={register("email")}
        error={fieldError("email")}
      />
      <TextField
        id="register-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        registration={register("password")}
        error={fieldError("password")}
        hint={passwordHint(minLength)}
      />
      <TextField
        id="register-phone"
        label="Phone"
        type="tel"
        autoComplete="tel"
        optional
        registration={register("phone")}
        error={fieldError("phone")}
      />
      <TextField
        id="register-companyName"
        label="Company"
        autoComplete="organization"
        optional
        registration={register("companyName")}
        error={fieldError("companyName")}
      />
      <TextField
        id="register-notes"
        label="Notes"
        optional
        multiline
        registration={register("notes")}
        error={fieldError("notes")}
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
      <div className="portal-actions">
        <Button type="submit" intent={Intent.PRIMARY} text="Register" loading={registration.isPending} />
      </div>
    </form>
  );
}
