import type { TypedDocumentNode } from "@apollo/client";
import { useQuery } from "@apollo/client/react";
import { H1 } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useEffect } from "react";
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { SettingsLoad } from "./SettingsLoad";

/** Props of {@link SettingsScreen}. */
export interface SettingsScreenProps<TData, T> {
  /** the page's class beside `portal-page`: "branding-page" */
  className: string;
  /** the page's heading: "Branding Settings" */
  title: string;
  /** what is loaded, in words: "the branding" */
  what: string;
  /** the page's one query, without variables */
  query: TypedDocumentNode<TData, Record<string, never>>;
  /** the settings out of the query's data */
  pick(data: TData): T | null | undefined;
  /** the page, once the settings are loaded */
  children(settings: T): ReactNode;
}

/**
 * A settings page: its heading, and its one query (from the cache, then the network) through the
 * states of {@link SettingsLoad} to the form for the settings.
 */
export function SettingsScreen<TData, T>({
  className,
  title,
  what,
  query,
  pick,
  children,
}: SettingsScreenProps<TData, T>) {
  const { data, loading, error, refetch } = useQuery(query, { fetchPolicy: "cache-and-network" });
  const settings = data ? pick(data as TData) : undefined;
  return (
    <section className={`portal-page ${className}`}>
      <H1>{title}</H1>
      <SettingsLoad
        what={what}
        settings={settings}
        loading={loading}
        error={error}
        onRetry={() => void refetch()}
      >
        {children}
      </SettingsLoad>
    </section>
  );
}

/** Props of {@link useSettingsForm}. */
export interface SettingsFormProps<TSettings, TInput extends FieldValues, TOutput> {
  /** the shared zod schema the server checks too */
  schema: z.ZodType<TOutput, TInput>;
  /** the stored settings */
  settings: TSettings;
  /** the form's values for the stored settings */
  valuesOf(settings: TSettings): TInput;
  /** also run when the stored settings change (a field kept outside the form) */
  onReset?(settings: TSettings): void;
}

/**
 * The form of a settings page, checked on every change with the shared schema, that starts again
 * from the stored settings whenever they change (saved here or elsewhere).
 */
export function useSettingsForm<TSettings, TInput extends FieldValues, TOutput>({
  schema,
  settings,
  valuesOf,
  onReset,
}: SettingsFormProps<TSettings, TInput, TOutput>): UseFormReturn<TInput, unknown, TOutput> {
  const form = useForm<TInput, unknown, TOutput>({
    // biome-ignore lint/suspicious/noExplicitAny: zodResolver's overloads do not take a generic schema
    resolver: zodResolver(schema as any) as never,
    mode: "onChange",
    defaultValues: valuesOf(settings) as DefaultValues<TInput>,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: valuesOf and onReset are the page's own, fixed in meaning
  useEffect(() => {
    form.reset(valuesOf(settings));
    onReset?.(settings);
  }, [settings, form]);
  return form;
}
