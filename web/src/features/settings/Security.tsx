import { useMutation } from "@apollo/client/react";
import "./branding.css";
import { Alert, Button, Callout, Card, Classes, FormGroup, H2, Intent, Switch } from "@blueprintjs/core";
import { LogOut } from "@blueprintjs/icons";
import {
  LOGIN_IP_WINDOW_MINUTES,
  SECURITY_BOUNDS,
  type SecuritySettingsInput,
  securitySettingsSchema,
} from "@schema/validation/security";
import {
  SecuritySettingsDocument,
  type SecuritySettingsFieldsFragment,
  SignOutEveryoneElseDocument,
  UpdateSecuritySettingsDocument,
} from "@web/generated/graphql";
import { FactsTable } from "@web/ui/FactsTable";
import { runWithToast } from "@web/ui/mutationToast";
import { SaveButton, settingsPage, storedFieldsOf, useSettingsSave } from "@web/ui/SettingsScreen";
import { TextField } from "@web/ui/TextField";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { LastChanged } from "./LastChanged";

/**
 * Security Settings (spec §2, manage:config; issue 12): the sign-in switches, the minimum password
 * length, the sign-in rate limits within safe bounds, the spec's session timings (read-only), and
 * "Sign out everyone else". Each change applies to the next sign-in.
 */
export const SecurityPage = settingsPage({
  className: "security-page",
  title: "Security Settings",
  what: "the security settings",
  query: SecuritySettingsDocument,
  pick: (data) => data.securitySettings,
  children: (settings) => (
    <div className="branding-layout">
      <SecurityForm settings={settings} />
      <div>
        <SessionTimings settings={settings} />
        <SignOutEveryone />
      </div>
    </div>
  ),
});

function formValuesOf(s: SecuritySettingsFieldsFragment): SecuritySettingsInput {
  return storedFieldsOf(securitySettingsSchema, s);
}

type SwitchName =
  | "requireVerifiedEmail"
  | "revealUnknownAccounts"
  | "requireEnhancedForAdmins"
  | "requireTwoFactorForAdmins"
  | "requireTwoFactorForEveryone";
type NumberName = keyof typeof SECURITY_BOUNDS;

const SWITCHES: { name: SwitchName; label: string; helper: string }[] = [
  {
    name: "requireVerifiedEmail",
    label: "Require a verified email before sign-in",
    helper: "An unverified account is asked to verify its email first.",
  },
  {
    name: "revealUnknownAccounts",
    label: "Reveal unknown accounts",
    helper: "An unknown login gets 'Account not found' (404) instead of 'Invalid login credentials'.",
  },
  {
    name: "requireEnhancedForAdmins",
    label: "Require security questions of administrators",
    helper: "Administrators answer one of their security questions after the password.",
  },
  {
    name: "requireTwoFactorForAdmins",
    label: "Require two-factor sign-in for administrators",
    helper:
      "An administrator without an authenticator app or passkey can only set one up after signing in. Set up your own first.",
  },
  {
    name: "requireTwoFactorForEveryone",
    label: "Require two-factor sign-in for everyone",
    helper:
      "Every user without an authenticator app or passkey can only set one up after signing in. Set up your own first.",
  },
];

const NUMBERS: { name: NumberName; label: string; unit: string }[] = [
  { name: "minPasswordLength", label: "Minimum password length", unit: "characters" },
  {
    name: "loginIpAttempts",
    label: "Failed sign-ins per address",
    unit: `per ${LOGIN_IP_WINDOW_MINUTES} minutes`,
  },
  { name: "loginAccountFreeFailures", label: "Failures before delays", unit: "per account and address" },
  { name: "loginAccountMaxDelayMinutes", label: "Longest delay", unit: "minutes" },
];

/** The settings form, checked with the shared schema and its bounds. */
function SecurityForm({ settings }: { settings: SecuritySettingsFieldsFragment }) {
  const baseId = useId();
  const {
    form,
    submit: handleSubmit,
    saving,
  } = useSettingsSave({
    schema: securitySettingsSchema,
    settings,
    valuesOf: formValuesOf,
    mutation: UpdateSecuritySettingsDocument,
    query: SecuritySettingsDocument,
    variablesOf: (values) => ({ input: values }),
    answerOf: (data) => data.updateSecuritySettings,
    success: "MutationUpdateSecuritySettingsSuccess",
    saved: () => ({ title: "Security settings saved", description: "The next sign-in follows them." }),
    failure: "Failed to save security settings",
  });
  const errors = form.formState.errors;

  return (
    <Card className="branding-form-card">
      <form onSubmit={handleSubmit} noValidate aria-label="Security settings" className="branding-form">
        <H2>Sign-in</H2>
        {SWITCHES.map((item) => (
          <Controller
            key={item.name}
            control={form.control}
            name={item.name}
            render={({ field }) => (
              <FormGroup helperText={errors[item.name]?.message ?? item.helper}>
                <Switch
                  label={item.label}
                  checked={field.value === true}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              </FormGroup>
            )}
          />
        ))}
        {settings.adminsWithoutQuestions > 0 ? (
          <Callout intent={Intent.WARNING} compact>
            {settings.adminsWithoutQuestions === 1
              ? "1 administrator has"
              : `${settings.adminsWithoutQuestions} administrators have`}{" "}
            no security questions yet: while administrators must answer them, such an account cannot sign in.
          </Callout>
        ) : null}
        <H2>Passwords and rate limits</H2>
        {NUMBERS.map((item) => {
          const { min, max } = SECURITY_BOUNDS[item.name];
          return (
            <TextField
              key={item.name}
              id={`${baseId}-${item.name}`}
              label={item.label}
              registration={form.register(item.name, { valueAsNumber: true })}
              error={errors[item.name]?.message}
              hint={`${min} to ${max} ${item.unit}`}
              type="number"
              min={min}
              max={max}
              step={1}
              className="security-number"
            />
          );
        })}
        <p className={Classes.TEXT_MUTED}>
          Passwords always need a digit and a special character (spec §5); the minimum never goes below 8.
        </p>
        <div className="branding-actions">
          <SaveButton text="Save security settings" loading={saving} />
        </div>
        <LastChanged updatedAt={settings.updatedAt} updatedBy={settings.updatedBy} paragraph />
      </form>
    </Card>
  );
}

/** The spec's session timings, read-only. */
function SessionTimings({ settings }: { settings: SecuritySettingsFieldsFragment }) {
  const headingId = useId();
  const t = settings.sessionTimings;
  const rows: [string, string][] = [
    ["Idle timeout", `${t.idleTimeoutMinutes} minutes`],
    ["Idle warning", `after ${t.idleWarningMinutes} minutes`],
    ["Idle check", `every ${t.idleCheckSeconds} seconds`],
    ["Server session check", `every ${t.sessionCheckMinutes} minutes`],
    ["Longest session", `${t.absoluteLifetimeHours} hours`],
  ];
  return (
    <section aria-labelledby={headingId}>
      <H2 id={headingId}>Session timings</H2>
      <p className={Classes.TEXT_MUTED}>Set by the specification; shown for reference.</p>
      <FactsTable rows={rows} labelledBy={headingId} />
    </section>
  );
}

/** "Sign out everyone else", behind a confirmation. */
function SignOutEveryone() {
  const headingId = useId();
  const [confirming, setConfirming] = useState(false);
  const [signOut, running] = useMutation(SignOutEveryoneElseDocument);
  const handleConfirm = async () => {
    setConfirming(false);
    await runWithToast({
      run: async () => (await signOut()).data?.signOutEveryoneElse,
      success: "MutationSignOutEveryoneElseSuccess",
      saved: () => ({
        title: "Everyone else is signed out",
        description: "Every other session ends at its next request; yours goes on.",
      }),
      failure: "Failed to sign everyone out",
    });
  };
  return (
    <section aria-labelledby={headingId} className="security-sign-out">
      <H2 id={headingId}>Sessions</H2>
      <p>Ends every session but yours: everyone, other administrators and your other browsers included.</p>
      <Button
        intent={Intent.DANGER}
        icon={<LogOut />}
        text="Sign out everyone else"
        loading={running.loading}
        onClick={() => setConfirming(true)}
      />
      <Alert
        isOpen={confirming}
        canEscapeKeyCancel
        intent={Intent.DANGER}
        icon={<LogOut />}
        cancelButtonText="Cancel"
        confirmButtonText="Sign out everyone else"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void handleConfirm()}
      >
        <p>Everyone else will have to sign in again. Continue?</p>
      </Alert>
    </section>
  );
}
