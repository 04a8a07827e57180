import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// The editor's look, in the custom properties ../codeEditor.css sets for Blueprint's light and dark
// themes: one theme for both, so a change of theme needs no reconfiguration.

const v = (name: string) => `var(--portal-code-${name})`;

const highlight = HighlightStyle.define([
  { tag: [t.tagName, t.angleBracket, t.definitionOperator], color: v("tag") },
  { tag: [t.attributeName, t.propertyName], color: v("attribute") },
  { tag: [t.attributeValue, t.string, t.url], color: v("string") },
  {
    tag: [t.comment, t.meta, t.processingInstruction, t.documentMeta],
    color: v("muted"),
    fontStyle: "italic",
  },
  { tag: [t.keyword, t.operator, t.number, t.atom, t.bool], color: v("attribute") },
  { tag: t.invalid, color: v("danger") },
]);

/** The editor's theme: Blueprint's colours through the page's custom properties, its mono font. */
export function editorTheme(minLines: number): Extension {
  return [
    syntaxHighlighting(highlight),
    EditorView.theme({
      "&": { color: v("text"), backgroundColor: v("bg"), fontSize: "13px" },
      "&.cm-focused": { outline: "none" },
      ".cm-scroller": {
        fontFamily: "var(--bp-typography-family-mono, monospace)",
        lineHeight: "1.5",
        minHeight: `${minLines * 1.5 + 0.5}em`,
        maxHeight: "60vh",
      },
      ".cm-content": { caretColor: v("text") },
      ".cm-cursor, .cm-dropCursor": { borderLeftColor: v("text") },
      "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
        { backgroundColor: v("selection") },
      ".cm-gutters": {
        backgroundColor: v("gutter-bg"),
        color: v("muted"),
        borderRight: `1px solid ${v("border")}`,
      },
      ".cm-activeLine": { backgroundColor: v("active-line") },
      ".cm-activeLineGutter": { backgroundColor: v("active-line"), color: v("text") },
      ".cm-errorLine, .cm-errorLine.cm-activeLine": { backgroundColor: v("error-line") },
      ".cm-templateTag, .cm-templateTag *": { color: v("template") },
      ".cm-templateTag": { backgroundColor: v("template-bg"), borderRadius: "2px" },
      ".cm-templateSection": { fontWeight: "600" },
      ".cm-templateComment, .cm-templateComment *": { color: v("muted"), fontStyle: "italic" },
      ".cm-matchingBracket": { outline: `1px solid ${v("muted")}`, backgroundColor: "transparent" },
      ".cm-tooltip": {
        backgroundColor: v("tooltip-bg"),
        color: v("text"),
        border: `1px solid ${v("border")}`,
        borderRadius: "2px",
      },
      ".cm-tooltip.cm-tooltip-autocomplete > ul": {
        fontFamily: "var(--bp-typography-family-mono, monospace)",
      },
      ".cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]": {
        backgroundColor: v("option-selected-bg"),
        color: v("option-selected-text"),
      },
      ".cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected] .cm-completionDetail": {
        color: v("option-selected-text"),
      },
      ".cm-completionDetail": { color: v("muted"), opacity: "1", fontStyle: "normal", marginLeft: "1em" },
      ".cm-completionMatchedText": { textDecoration: "underline" },
      ".cm-completionInfo": { backgroundColor: v("tooltip-bg"), color: v("text") },
      ".cm-tooltip-lint": { backgroundColor: v("tooltip-bg"), color: v("text") },
      ".cm-diagnostic-error": { borderLeftColor: v("danger") },
      ".cm-panels": { backgroundColor: v("gutter-bg"), color: v("text") },
    }),
  ];
}
