import { H2 } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { resetRequestSchema } from "@schema/validation/user";
import { useRestMutation } from "@web/data/rest";
import { showToast } from "@web/lib/toast";
import { TextField } from "@web/ui/TextField";
import { useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import type { z } from "zod";
import { failureToast, SubmitRow } from "./authFields";

type EmailRequest = z.input<typeof resetRequestSchema>;

/** Props of a form that asks the server to email a link to an address. */
export interface EmailRequestFormProps {
  /** the form's accessible name */
  name: string;
  heading: string;
  intro: string;
  endpoint: string;
  submitText: string;
  fieldId: string;
  success: { title: string; description: (answer: { message?: string } | undefined) => string };
  /** title (and fallback description) of the failure toast */
  failureTitle: string;
}

/** One email field, posted as { email } to `endpoint`, with the toasts the caller names. */
export function EmailRequestForm(props: EmailRequestFormProps) {
  const request = useRestMutation<EmailRequest, { message?: string } | undefined>({
    request: (input) => ({ method: "POST", path: props.endpoint, body: input }),
    onSuccess: (answer) =>
      showToast({ title: props.success.title, description: props.success.description(answer) }),
    onError: failureToast(props.failureTitle),
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<EmailRequest>({ resolver: zodResolver(resetRequestSchema), defaultValues: { email: "" } });

  const handleRequest = handleSubmit(async (input) => {
    if ((await request.run(input)) !== undefined) reset();
  });

  return (
    <form onSubmit={handleRequest} noValidate aria-label={props.name}>
      <H2>{props.heading}</H2>
      <p>{props.intro}</p>
      <TextField
        id={props.fieldId}
        label="Email"
        type="email"
        autoComplete="email"
        registration={register("email")}
        error={errors.email?.message}
      />
      <SubmitRow text={props.submitText} loading={request.isPending}>
        <Link to="/auth">Back to login</Link>
      </SubmitRow>
    </form>
  );
}
