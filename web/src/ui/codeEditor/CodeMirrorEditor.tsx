import { autocompletion } from "@codemirror/autocomplete";
import { html } from "@codemirror/lang-html";
import { bracketMatching, indentOnInput } from "@codemirror/language";
import {
  type Diagnostic,
  forEachDiagnostic,
  lintGutter,
  lintKeymap,
  setDiagnostics,
  setDiagnosticsEffect,
} from "@codemirror/lint";
import {
  Annotation,
  Compartment,
  EditorState,
  type Extension,
  RangeSetBuilder,
  type Text,
} from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { CodeDiagnostic, CodeEditorProps } from "@web/ui/CodeEditor";
import { minimalSetup } from "codemirror";
import { useEffect, useImperativeHandle, useRef } from "react";
import { templateTags } from "./templateTags";
import { editorTheme } from "./theme";

// CodeEditor's CodeMirror 6 (loaded on demand by ../CodeEditor.tsx). The editor lives in a shadow root
// of its host: CodeMirror's styles are then one constructed stylesheet adopted by that root, which
// the app's Content Security Policy (style-src 'self', no inline <style>) allows, where in the
// document itself it would add a <style> element the policy refuses.

/** Marks a change that came from the `value` prop, which is not told back through onChange. */
const fromProps = Annotation.define<boolean>();

const NO_DIAGNOSTICS: readonly CodeDiagnostic[] = [];

/** The id, inside the shadow root, of the text read as the editor's description. */
const DESCRIPTION_ID = "code-editor-description";

/** `diagnostics` as CodeMirror's, their lines and columns clamped to `doc`. */
function toCodeMirror(doc: Text, diagnostics: readonly CodeDiagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
    const from = Math.min(line.from + Math.max(0, (d.column ?? 1) - 1), line.to);
    const to = d.length === undefined ? line.to : Math.min(from + d.length, line.to);
    return { from, to: Math.max(from, to), severity: d.severity ?? "error", message: d.message };
  });
}

const errorLine = Decoration.line({ class: "cm-errorLine" });

function errorLines(state: EditorState): DecorationSet {
  const starts = new Set<number>();
  forEachDiagnostic(state, (d, from) => {
    if (d.severity === "error") starts.add(state.doc.lineAt(from).from);
  });
  const builder = new RangeSetBuilder<Decoration>();
  for (const start of [...starts].sort((a, b) => a - b)) builder.add(start, start, errorLine);
  return builder.finish();
}

/** The whole line of each error tinted, beside the lint gutter's marker and the underlined range. */
const errorLineHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = errorLines(view.state);
    }
    update(update: ViewUpdate) {
      const diagnosed = update.transactions.some((tr) => tr.effects.some((e) => e.is(setDiagnosticsEffect)));
      if (update.docChanged || diagnosed) this.decorations = errorLines(update.state);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/**
 * Text typed over a selection, inserted by the editor rather than by the browser: Chrome keeps the
 * look of the highlighted text it replaces with a style attribute, which the CSP refuses (and logs).
 */
const replaceSelectionOnInput = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== "insertText" || event.data === null || view.composing) return false;
    // the browser's own selection, which CodeMirror's may not have caught up with yet (a selection
    // made by a script); Chromium gives a shadow root a selection of its own
    const root = view.root as Document;
    const selection = root.getSelection?.();
    const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    if (!range || range.collapsed || !view.contentDOM.contains(range.commonAncestorContainer)) return false;
    const from = view.posAtDOM(range.startContainer, range.startOffset);
    const to = view.posAtDOM(range.endContainer, range.endOffset);
    event.preventDefault();
    view.dispatch({
      changes: { from, to, insert: event.data },
      selection: { anchor: from + event.data.length },
      userEvent: "input.type",
      scrollIntoView: true,
    });
    return true;
  },
});

function contentAttributes(props: CodeEditorProps): Extension {
  return EditorView.contentAttributes.of({
    "aria-label": props.label,
    ...(props.description ? { "aria-describedby": DESCRIPTION_ID } : {}),
    ...(props.invalid ? { "aria-invalid": "true" } : {}),
  });
}

/** The editor itself: see CodeEditor. */
export function CodeMirrorEditor(props: CodeEditorProps) {
  const { value, language = "text", variables, diagnostics = NO_DIAGNOSTICS, minLines = 8, ref } = props;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const description = useRef<HTMLDivElement | null>(null);
  const latest = useRef(props);
  const compartments = useRef({ attributes: new Compartment(), variables: new Compartment() });

  useEffect(() => {
    latest.current = props;
  });

  useImperativeHandle(ref, () => ({ focus: () => view.current?.focus() }), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: made once; the props it reads change through the effects below
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const root = element.shadowRoot ?? element.attachShadow({ mode: "open" });
    const said = document.createElement("div");
    said.id = DESCRIPTION_ID;
    said.hidden = true;
    said.textContent = latest.current.description ?? "";
    root.append(said);
    description.current = said;
    const { attributes, variables: tagCompartment } = compartments.current;
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          minimalSetup,
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          bracketMatching(),
          indentOnInput(),
          EditorView.lineWrapping,
          language === "html" ? html({ autoCloseTags: true }) : [],
          autocompletion({ icons: false }),
          lintGutter(),
          errorLineHighlighter,
          replaceSelectionOnInput,
          keymap.of(lintKeymap),
          tagCompartment.of(variables ? templateTags(variables) : []),
          attributes.of(contentAttributes(latest.current)),
          editorTheme(minLines),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromProps))) {
              latest.current.onChange(update.state.doc.toString());
            }
            if (update.focusChanged && !update.view.hasFocus) latest.current.onBlur?.();
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      said.remove();
      view.current = null;
      description.current = null;
    };
  }, []);

  // the value set from outside (a reset, a restored version): the document becomes it
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current === value) return;
    editor.dispatch({
      changes: { from: 0, to: current.length, insert: value },
      annotations: fromProps.of(true),
    });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, toCodeMirror(editor.state.doc, diagnostics)));
  }, [diagnostics]);

  useEffect(() => {
    view.current?.dispatch({
      effects: compartments.current.variables.reconfigure(variables ? templateTags(variables) : []),
    });
  }, [variables]);

  const { label, description: describedAs, invalid } = props;
  useEffect(() => {
    if (description.current) description.current.textContent = describedAs ?? "";
    view.current?.dispatch({
      effects: compartments.current.attributes.reconfigure(
        contentAttributes({ ...latest.current, label, description: describedAs, invalid }),
      ),
    });
  }, [label, describedAs, invalid]);

  return (
    <div
      ref={host}
      className={`portal-code-editor${invalid ? " portal-code-editor-invalid" : ""}`}
      data-language={language}
    />
  );
}
