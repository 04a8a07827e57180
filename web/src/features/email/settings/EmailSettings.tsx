import "./emailSettings.css";
import { Callout, Card, FormGroup, InputGroup, Intent, Radio, RadioGroup, Switch } from "@blueprintjs/core";
import { Lock } from "@blueprintjs/icons";
import {
  DEFAULT_SMTP_PORTS,
  emailSettingsSchema,
  SMTP_SECURITIES,
  SMTP_SECURITY_LABELS,
  smtpConnectionSchema,
} from "@schema/validation/emailSettings";
import { LastChanged } from "@web/features/settings/LastChanged";
import {
  EmailSettingsDocument,
  type EmailSettingsFieldsFragment,
  TestEmailConnectionDocument,
  UpdateEmailSettingsDocument,
} from "@web/generated/graphql";
import { ConnectionTest, useConnectionTest } from "@web/ui/ConnectionTest";
import { SaveButton, settingsPage, useSettingsSave } from "@web/ui/SettingsScreen";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { connectionInputOf, formValuesOf, portValueOf, settingsInputOf } from "./form";

/**
 * Email Settings (spec §2, manageEmails; issue 12): the SMTP server (host, port, security, user and a
 * write-only password) with "Test connection" answering in the portal's words, the sender, the
 * Reply-To, the team's address and the switch that keeps messages in the portal. Values set in the
 * environment are shown locked with the reason. Saved settings apply to the next message.
 */
export const EmailSettingsPage = settingsPage({
  className: "email-settings-page",
  title: "Email Settings",
  what: "the email settings",
  query: EmailSettingsDocument,
  pick: (data) => data.emailSettings,
  children: (settings) => (
    <>
      <Callout
        className="email-settings-summary"
        intent={
          settings.mode === "environment" || settings.mode === "settings" ? Intent.PRIMARY : Intent.WARNING
        }
        title="Where messages go"
        compact
      >
        {settings.summary}
      </Callout>
      <EmailSettingsForm settings={settings} />
    </>
  ),
});

type EnvironmentLock = EmailSettingsFieldsFragment["locks"][number];

/** A read-only field showing what a variable of the environment sets, with the reason. */
function LockedField({ label, lock }: { label: string; lock: EnvironmentLock }) {
  const id = useId();
  return (
    <FormGroup label={label} labelFor={id} helperText={lock.reason}>
      <InputGroup id={id} value={lock.value} readOnly rightElement={<Lock className="portal-lock-icon" />} />
    </FormGroup>
  );
}

const SMTP_FIELDS = ["smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword"] as const;

/** The settings form, checked with the shared schema and its messages. */
function EmailSettingsForm({ settings }: { settings: EmailSettingsFieldsFragment }) {
  const ids = {
    host: useId(),
    port: useId(),
    security: useId(),
    user: useId(),
    password: useId(),
    fromName: useId(),
    fromAddress: useId(),
    replyTo: useId(),
    team: useId(),
  };
  const [portText, setPortText] = useState(() => (settings.smtpPort ? String(settings.smtpPort) : ""));
  const {
    form,
    submit: handleSave,
    saving,
  } = useSettingsSave({
    schema: emailSettingsSchema,
    settings,
    valuesOf: formValuesOf,
    onReset: (next) => setPortText(next.smtpPort ? String(next.smtpPort) : ""),
    mutation: UpdateEmailSettingsDocument,
    query: EmailSettingsDocument,
    variablesOf: (values) => ({ input: settingsInputOf(values) }),
    answerOf: (data) => data.updateEmailSettings,
    success: "MutationUpdateEmailSettingsSuccess",
    saved: (answer) => ({ title: "Email settings saved", description: answer.data.summary }),
    failure: "Failed to save email settings",
  });
  const connection = useConnectionTest({
    mutation: TestEmailConnectionDocument,
    answerOf: (data) => data.testEmailConnection,
    success: "MutationTestEmailConnectionSuccess",
  });
  const errors = form.formState.errors;
  const security = form.watch("smtpSecurity") ?? "starttls";
  const lockOf = (variable: string) => settings.locks.find((l) => l.variable === variable);
  const smtpLock = lockOf("SMTP_URL");
  const fromLock = lockOf("MAIL_FROM");
  const teamLock = lockOf("TEAM_EMAIL");

  const handleTest = async () => {
    let input = {};
    if (!smtpLock) {
      const checked = smtpConnectionSchema.safeParse(form.getValues());
      if (!checked.success) {
        connection.clear();
        await form.trigger([...SMTP_FIELDS]);
        return;
      }
      input = connectionInputOf(checked.data);
    }
    await connection.run({ input });
  };

  // Blueprint's inputs take the DOM ref as inputRef (their ref is the component)
  const bind = (
    name: "smtpHost" | "smtpUser" | "smtpPassword" | "fromName" | "fromAddress" | "replyTo" | "teamAddress",
  ) => {
    const { ref, ...rest } = form.register(name);
    return { ...rest, inputRef: ref, intent: errors[name] ? Intent.DANGER : Intent.NONE };
  };
  const fieldError = (message: string | undefined, help?: string) => ({
    intent: message ? Intent.DANGER : Intent.NONE,
    helperText: message ?? help,
  });

  return (
    <Card className="email-settings-card">
      <form onSubmit={handleSave} noValidate aria-label="Email settings" className="email-settings-form">
        <fieldset>
          <legend>SMTP server</legend>
          {smtpLock ? (
            <LockedField label="Server (SMTP_URL)" lock={smtpLock} />
          ) : (
            <>
              <FormGroup
                label="Host"
                labelFor={ids.host}
                {...fieldError(
                  errors.smtpHost?.message,
                  "Leave empty to keep messages in the portal (captured) instead of sending them.",
                )}
              >
                <InputGroup
                  id={ids.host}
                  placeholder="smtp.example.com"
                  autoComplete="off"
                  {...bind("smtpHost")}
                />
              </FormGroup>
              <FormGroup label={<span id={ids.security}>Security</span>}>
                <Controller
                  control={form.control}
                  name="smtpSecurity"
                  render={({ field }) => (
                    <RadioGroup
                      name={ids.security}
                      aria-labelledby={ids.security}
                      inline
                      selectedValue={field.value ?? "starttls"}
                      onChange={(e) => {
                        field.onChange(e.currentTarget.value);
                        connection.clear();
                      }}
                    >
                      {SMTP_SECURITIES.map((value) => (
                        <Radio key={value} value={value} label={SMTP_SECURITY_LABELS[value]} />
                      ))}
                    </RadioGroup>
                  )}
                />
              </FormGroup>
              <FormGroup
                label="Port"
                labelFor={ids.port}
                {...fieldError(errors.smtpPort?.message, `Empty: ${DEFAULT_SMTP_PORTS[security]}`)}
              >
                <InputGroup
                  id={ids.port}
                  className="email-settings-port"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={String(DEFAULT_SMTP_PORTS[security])}
                  value={portText}
                  intent={errors.smtpPort ? Intent.DANGER : Intent.NONE}
                  onValueChange={(text) => {
                    setPortText(text);
                    form.setValue("smtpPort", portValueOf(text), { shouldValidate: true, shouldDirty: true });
                  }}
                />
              </FormGroup>
              <FormGroup label="User name" labelFor={ids.user} {...fieldError(errors.smtpUser?.message)}>
                <InputGroup id={ids.user} autoComplete="off" {...bind("smtpUser")} />
              </FormGroup>
              <FormGroup
                label="Password"
                labelFor={ids.password}
                {...fieldError(
                  errors.smtpPassword?.message,
                  settings.smtpPasswordSet
                    ? "A password is stored; it is never shown. Clearing the user name removes it."
                    : undefined,
                )}
              >
                <InputGroup
                  id={ids.password}
                  type="password"
                  autoComplete="new-password"
                  placeholder={settings.smtpPasswordSet ? "Stored — leave empty to keep" : undefined}
                  {...bind("smtpPassword")}
                />
              </FormGroup>
            </>
          )}
          <ConnectionTest
            className="email-settings-test"
            result={connection.result}
            testing={connection.testing}
            onTest={() => void handleTest()}
          />
        </fieldset>
        <fieldset>
          <legend>Sender</legend>
          {fromLock ? (
            <LockedField label="From (MAIL_FROM)" lock={fromLock} />
          ) : (
            <>
              <FormGroup label="From name" labelFor={ids.fromName} {...fieldError(errors.fromName?.message)}>
                <InputGroup id={ids.fromName} {...bind("fromName")} />
              </FormGroup>
              <FormGroup
                label="From address"
                labelFor={ids.fromAddress}
                {...fieldError(errors.fromAddress?.message)}
              >
                <InputGroup id={ids.fromAddress} type="email" {...bind("fromAddress")} />
              </FormGroup>
            </>
          )}
          <FormGroup
            label="Reply-to address"
            labelFor={ids.replyTo}
            {...fieldError(errors.replyTo?.message, "Empty: replies go to the from address.")}
          >
            <InputGroup id={ids.replyTo} type="email" {...bind("replyTo")} />
          </FormGroup>
        </fieldset>
        <fieldset>
          <legend>Team</legend>
          {teamLock ? (
            <LockedField label="Team address (TEAM_EMAIL)" lock={teamLock} />
          ) : (
            <FormGroup
              label="Team address"
              labelFor={ids.team}
              {...fieldError(errors.teamAddress?.message, "New notes and bookings are sent here.")}
            >
              <InputGroup id={ids.team} type="email" {...bind("teamAddress")} />
            </FormGroup>
          )}
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Switch
                label="Send email (off: messages are kept in the portal, marked captured)"
                checked={field.value ?? true}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
              />
            )}
          />
        </fieldset>
        <div className="email-settings-actions">
          <SaveButton text="Save settings" loading={saving} />
          <LastChanged
            updatedAt={settings.updatedAt}
            updatedBy={settings.updatedBy}
            then="Saved settings apply to the next message."
          />
        </div>
      </form>
    </Card>
  );
}
