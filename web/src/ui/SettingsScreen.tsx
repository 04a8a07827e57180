import type { OperationVariables, TypedDocumentNode } from "@apollo/client";
import { useMutation, useQuery } from "@apollo/client/react";
import { Button, H1, Intent } from "@blueprintjs/core";
import { FloppyDisk } from "@blueprintjs/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useEffect } from "react";
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { runWithToast } from "./mutationToast";
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

/**
 * The component of a settings page: a {@link SettingsScreen} with these props, for a route to show.
 */
export function settingsPage<TData, T>(props: SettingsScreenProps<TData, T>) {
  // biome-ignore lint/correctness/noComponentHookFactories: called once per page, at module level
  return function SettingsPage() {
    return <SettingsScreen {...props} />;
  };
}

/** The primary submit button of a settings form, with the floppy disk: "Save settings". */
export function SaveButton({ text, loading }: { text: string; loading: boolean }) {
  return <Button type="submit" intent={Intent.PRIMARY} icon={<FloppyDisk />} text={text} loading={loading} />;
}

/**
 * The form's values for stored settings when the form edits the stored fields as they are: each
 * field of the form's `schema`, read from `settings`.
 */
export function storedFieldsOf<K extends string, S extends Record<K, unknown>>(
  schema: { shape: Record<K, unknown> },
  settings: S,
): Pick<S, K> {
  return Object.fromEntries(Object.keys(schema.shape).map((key) => [key, settings[key as K]])) as Pick<S, K>;
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
    // zodResolver's overloads do not take a generic schema: the page's schema is its form's
    resolver: zodResolver(schema as unknown as Parameters<typeof zodResolver>[0]) as never,
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

/** Props of {@link useSettingsSave}. */
export interface SettingsSaveProps<
  TSettings,
  TInput extends FieldValues,
  TOutput,
  TResult,
  TVars,
  A,
  K extends string,
> extends SettingsFormProps<TSettings, TInput, TOutput> {
  /** the page's update mutation */
  mutation: TypedDocumentNode<TResult, TVars>;
  /** the page's query, fetched again after a save */
  query: TypedDocumentNode<unknown, Record<string, never>>;
  /** the mutation's variables for the checked values */
  variablesOf(values: TOutput): TVars;
  /** the mutation's field out of its data */
  answerOf(data: TResult): A | null | undefined;
  /** the `__typename` of the success member */
  success: K;
  /** the success toast */
  saved(answer: Extract<A, { __typename?: K }>): { title: string; description?: string };
  /** the failure toast's title */
  failure: string;
}

/**
 * The form of a settings page ({@link useSettingsForm}) with its save: the update mutation, which
 * fetches the page's query again, run on submit with a toast of what became of it.
 */
export function useSettingsSave<
  TSettings,
  TInput extends FieldValues,
  TOutput,
  TResult,
  TVars,
  A extends { __typename?: string },
  K extends string,
>(props: SettingsSaveProps<TSettings, TInput, TOutput, TResult, TVars, A, K>) {
  const form = useSettingsForm(props);
  const [save, saving] = useMutation<TResult, OperationVariables>(props.mutation, {
    refetchQueries: [props.query],
  });
  const submit = form.handleSubmit((values) =>
    runWithToast<A, K>({
      run: async () => {
        const { data } = await save({ variables: props.variablesOf(values) as Record<string, unknown> });
        return data ? props.answerOf(data as TResult) : undefined;
      },
      success: props.success,
      saved: props.saved,
      failure: props.failure,
    }),
  );
  return { form, submit, saving: saving.loading };
}
