// Python token colours as CSS custom properties, so one highlight style serves the light and
// the dark theme (the colours themselves live in style.css under --syn-*).
import { HighlightStyle } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

export const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: "var(--syn-kw)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-str)" },
  { tag: [t.number, t.bool, t.null], color: "var(--syn-num)" },
  { tag: [t.comment, t.lineComment, t.docString], color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [t.function(t.definition(t.variableName)), t.definition(t.className)], color: "var(--syn-def)" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "var(--syn-call)" },
  { tag: [t.meta], color: "var(--syn-meta)" },
  { tag: [t.self, t.atom], color: "var(--syn-num)" },
  { tag: t.invalid, color: "var(--syn-invalid)" },
]);
