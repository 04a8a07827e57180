import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from "@codemirror/autocomplete";
import { EditorState, type Extension } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { CodeVariable } from "@web/ui/CodeEditor";

// Mustache tags in a template ({{name}}, {{#name}}…{{/name}}, {{^name}}, {{! comment}}): marked over
// the HTML highlighting, and the template's own variables completed after "{{". The template's
// rules themselves (which variables, which tags) are the server's (services/email/templateRules.ts).

const variableTag = Decoration.mark({ class: "cm-templateTag" });
const sectionTag = Decoration.mark({ class: "cm-templateTag cm-templateSection" });
const commentTag = Decoration.mark({ class: "cm-templateTag cm-templateComment" });

const tags = new MatchDecorator({
  regexp: /\{\{\{?\s*([#^/!&>=]?)[^{}]*\}?\}\}/g,
  decoration: (match) => {
    const sigil = match[1];
    if (sigil === "!") return commentTag;
    return sigil === "#" || sigil === "^" || sigil === "/" ? sectionTag : variableTag;
  },
});

const tagHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tags.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = tags.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** The text before the cursor that a variable completes: "{{", "{{#", "{{ first", "{{/na". */
const OPEN_TAG_BEFORE = /\{\{\s*[#^/]?\s*[\w.]*$/;

/**
 * Completes `variables` inside an opening tag: after "{{" (or "{{#", "{{^", "{{/"), the names,
 * each with its meaning, closing the tag with "}}" unless it is closed already.
 */
export function templateVariableSource(variables: readonly CodeVariable[]): CompletionSource {
  const option = (v: CodeVariable, close: boolean): Completion => ({
    label: v.name,
    type: "variable",
    detail: v.description,
    info: v.sample ? `Sample: ${v.sample}` : undefined,
    apply: close ? `${v.name}}}` : v.name,
  });
  const closing = variables.map((v) => option(v, true));
  const plain = variables.map((v) => option(v, false));
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(OPEN_TAG_BEFORE);
    if (!before) return null;
    const word = /[\w.]*$/.exec(before.text)?.[0] ?? "";
    const closed = /^\s*\}\}/.test(context.state.sliceDoc(context.pos, context.pos + 8));
    return {
      from: before.to - word.length,
      options: closed ? plain : closing,
      validFor: /^[\w.]*$/,
    };
  };
}

/** Template tags highlighted, and `variables` completed after "{{", in any language. */
export function templateTags(variables: readonly CodeVariable[]): Extension {
  const source = templateVariableSource(variables);
  return [tagHighlighter, EditorState.languageData.of(() => [{ autocomplete: source }])];
}
