import "./codeEditor.css";
import { TextArea } from "@blueprintjs/core";
import { lazy, type Ref, Suspense } from "react";

/** A variable a template may use: completed after `{{` and named in the completion's details. */
export interface CodeVariable {
  name: string;
  description?: string;
  sample?: string;
}

/** A problem shown on a line of the code (marked in the gutter, the line tinted, the range underlined). */
export interface CodeDiagnostic {
  /** 1-based line */
  line: number;
  /** 1-based column where it starts; the start of the line when left out */
  column?: number;
  /** how many characters it covers from there; the rest of the line when left out */
  length?: number;
  message: string;
  severity?: "error" | "warning";
}

/** What a parent may do with the editor (react-hook-form's `field.ref` focuses it on an error). */
export interface CodeEditorHandle {
  focus(): void;
}

/** Props of {@link CodeEditor}: a controlled value, as react-hook-form's `Controller` gives it. */
export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  /** the editor's name, shown above it and read by screen readers ("HTML body") */
  label: string;
  /** the label is not shown (the editor is still named by it) */
  hideLabel?: boolean;
  /** the form field's name, given to the plain textarea while the editor loads */
  name?: string;
  /** read by screen readers after the name (the field's error); shown elsewhere on screen */
  description?: string;
  /** HTML (highlighting, tag completion) or plain text */
  language?: "html" | "text";
  /** `{{name}}`, `{{#name}}…{{/name}}` tags are highlighted, and these names completed after `{{` */
  variables?: readonly CodeVariable[];
  diagnostics?: readonly CodeDiagnostic[];
  invalid?: boolean;
  /** the height it starts at, in lines (it grows to 60% of the screen, then scrolls) */
  minLines?: number;
  ref?: Ref<CodeEditorHandle>;
}

/** The plain textarea shown while the editor loads, and instead of it if its code cannot be loaded. */
function PlainCodeEditor({
  value,
  onChange,
  onBlur,
  label,
  name,
  invalid,
  minLines = 8,
  ref,
}: CodeEditorProps) {
  return (
    <TextArea
      className="portal-code-fallback"
      name={name}
      fill
      rows={minLines}
      spellCheck={false}
      aria-label={label}
      aria-invalid={invalid ? true : undefined}
      intent={invalid ? "danger" : "none"}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={onBlur}
      inputRef={(textarea) => {
        if (typeof ref === "function") ref(textarea);
        else if (ref) ref.current = textarea;
      }}
    />
  );
}

// CodeMirror and its languages (about 130 KB compressed) load with the first editor shown, never
// with the page that holds it
const CodeMirrorEditor = lazy(() =>
  import("./codeEditor/CodeMirrorEditor").then(
    (module) => ({ default: module.CodeMirrorEditor }),
    // an app updated under a running page (its chunk gone): the textarea still edits the value
    () => ({ default: PlainCodeEditor }),
  ),
);

/**
 * A code editor (CodeMirror 6) for a form field: HTML or text with its syntax highlighted, template
 * tags highlighted and their variables completed after `{{`, problems marked on their lines, and
 * Blueprint's light and dark themes. Tab leaves it (it is never bound in the editor), so keyboard
 * users are not trapped. CodeMirror loads on first use; until then a plain textarea edits the value.
 */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <div className="portal-code-field">
      {/* not a <label>: the editor is no form control a label could point at (it is named by aria-label) */}
      {props.hideLabel ? null : <div className="portal-code-label">{props.label}</div>}
      <Suspense fallback={<PlainCodeEditor {...props} />}>
        <CodeMirrorEditor {...props} />
      </Suspense>
    </div>
  );
}
