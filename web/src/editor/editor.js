// The kernel editor: CodeMirror 6 with Python, line numbers, history, search, bracket
// matching, Tab indents (Escape then Tab leaves the editor: CodeMirror's tab-focus mode),
// Ctrl/Cmd+Enter runs. Also the two decorations the linking needs: lint markers for the
// runtime's diagnostics and a highlight of the source lines linked to an IR line or region.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorSelection, EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";

import { offsetOf, toLintDiagnostics } from "./diagnostics.js";
import { highlightStyle } from "./highlight.js";

/** What the editor says where focus enters it. */
export const TAB_HINT = "Tab indents · press Esc, then Tab, to leave the editor";
let editors = 0; // only for unique hint ids

const setLinked = StateEffect.define();
const linkedLine = Decoration.line({ class: "cm-linked-line" });

/** Lines highlighted because the IR line or region under the pointer came from them. */
const linkedField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setLinked)) continue;
      const doc = tr.state.doc;
      const lines = [...effect.value].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b);
      value = Decoration.set(lines.map((n) => linkedLine.range(doc.line(n).from)));
    }
    return value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * @param {HTMLElement} parent
 * @param {object} opts
 * @param {string} opts.doc
 * @param {(text: string) => void} [opts.onChange]
 * @param {() => void} [opts.onRun]
 * @param {(line: number) => void} [opts.onCursorLine]  1-based line of the main cursor.
 * @param {(line: number | null) => void} [opts.onHoverLine]
 * @param {string} [opts.label]  Accessible name of the editing area.
 * @param {string|null} [opts.hint]  Shown while the editor has focus and given as the editing
 *   area's description: Tab indents here (CodeMirror's convention), so the way out is said
 *   where focus enters.
 */
export function createEditor(parent, { doc, onChange, onRun, onCursorLine, onHoverLine, label = "Kernel source", hint = TAB_HINT }) {
  const hintId = hint ? `nkp-editor-hint-${++editors}` : null;
  let lastCursorLine = 0;
  const runKey = { key: "Mod-Enter", preventDefault: true, run: () => (onRun?.(), true) };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        indentUnit.of("    "),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        search({ top: true }),
        python(),
        syntaxHighlighting(highlightStyle),
        lintGutter(),
        linkedField,
        keymap.of([runKey, ...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
        // tabindex: the editing area is focusable anyway (contenteditable); saying so lets
        // checkers see that its scroller has focusable content (axe: scrollable-region-focusable).
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0", ...(hintId && { "aria-describedby": hintId }) }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
          if (update.docChanged || update.selectionSet) {
            const line = update.state.doc.lineAt(update.state.selection.main.head).number;
            if (line !== lastCursorLine) {
              lastCursorLine = line;
              onCursorLine?.(line);
            }
          }
        }),
      ],
    }),
  });

  if (hintId) {
    const el = parent.ownerDocument.createElement("div");
    el.className = "cm-nkp-hint";
    el.id = hintId;
    el.textContent = hint;
    parent.append(el); // after .cm-editor: shown by `.cm-focused + .cm-nkp-hint` (editor.css)
  }

  let hovered = null;
  view.contentDOM.addEventListener("mousemove", (event) => {
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
    const line = pos == null ? null : view.state.doc.lineAt(pos).number;
    if (line !== hovered) onHoverLine?.((hovered = line));
  });
  view.contentDOM.addEventListener("mouseleave", () => {
    if (hovered !== null) onHoverLine?.((hovered = null));
  });

  return {
    view,
    text: () => view.state.doc.toString(),
    /** Replaces the whole document (an example, a restored state); one undo step. */
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    /** Lint markers for the runtime's diagnostics (all of them at once; [] clears). */
    setProblems(diagnostics, filename) {
      view.dispatch(setDiagnostics(view.state, toLintDiagnostics(view.state.doc, diagnostics, filename)));
    },
    /**
     * Puts the cursor at line:col (1-based), selecting to endLine:endCol when given, and scrolls
     * there. `focus: false` leaves the keyboard where it is (an IR line or region picked with
     * the keyboard keeps its own pane focused).
     */
    select(line, col, endLine, endCol, { focus = true } = {}) {
      const doc = view.state.doc;
      const from = col ? offsetOf(doc, line, col) : doc.line(clampLine(doc, line)).from;
      const to = endLine ? offsetOf(doc, endLine, endCol ?? 1 + doc.line(clampLine(doc, endLine)).length) : from;
      view.dispatch({
        selection: EditorSelection.single(from, Math.max(from, to)),
        effects: EditorView.scrollIntoView(from, { y: "center" }),
      });
      if (focus) view.focus();
    },
    /** Highlights these 1-based lines (a Set or array) as linked; empty clears. */
    highlightLines(lines) {
      view.dispatch({ effects: setLinked.of(lines ?? []) });
    },
    cursorLine: () => view.state.doc.lineAt(view.state.selection.main.head).number,
    focus: () => view.focus(),
  };
}

function clampLine(doc, line) {
  return Math.min(Math.max(1, line | 0), doc.lines);
}
