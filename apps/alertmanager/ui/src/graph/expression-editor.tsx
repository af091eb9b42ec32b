import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from '@codemirror/autocomplete';
import {
  defaultKeymap,
  history,
  historyKeymap,
  insertNewlineAndIndent,
} from '@codemirror/commands';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintKeymap } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { PromQLExtension } from '@prometheus-io/codemirror-promql';
import { useEffect, useRef } from 'preact/hooks';
import { fetchCompletions } from '../api';

/**
 * PromQL's language for every panel: highlighting, checks as you type, and completion of
 * functions, metric names, label names and values from this server's metadata API (cached for
 * a few minutes, so typing asks the server little).
 */
const promql = new PromQLExtension().setComplete({
  remote: { url: '.', fetchFn: fetchCompletions, cache: { maxAge: 5 * 60_000 } },
});

const highlighting = HighlightStyle.define([
  { tag: tags.number, color: 'var(--code-number)' },
  { tag: tags.string, color: 'var(--code-string)' },
  { tag: [tags.keyword, tags.operator, tags.modifier], color: 'var(--code-keyword)' },
  {
    tag: [tags.function(tags.variableName), tags.standard(tags.variableName)],
    color: 'var(--accent)',
  },
  { tag: tags.labelName, color: 'var(--code-label)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--firing)' },
]);

/**
 * The editor's look. It lives in the editor's own shadow root, where the page's stylesheet does
 * not reach, so it is all here, in the page's colours (custom properties do reach it).
 */
const theme = EditorView.theme({
  '&': {
    color: 'var(--text)',
    background: 'var(--bg)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '0.92rem',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-content': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    padding: '7px 0',
    caretColor: 'var(--text)',
  },
  '.cm-line': { padding: '0 9px' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--muted)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    background: 'var(--label-bg)',
  },
  '.cm-matchingBracket': { background: 'var(--label-bg)', outline: '1px solid var(--border)' },
  '.cm-tooltip': {
    background: 'var(--card)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
  },
  '.cm-tooltip-autocomplete > ul': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    maxHeight: '16em',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    background: 'var(--accent)',
    color: 'var(--accent-text)',
  },
  '.cm-completionDetail': { color: 'var(--muted)', marginLeft: '1em' },
  '.cm-completionInfo': { padding: '6px 9px', maxWidth: '360px' },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--firing)' },
});

/**
 * The expression input: CodeMirror with PromQL. Enter runs the query (Shift+Enter starts a new
 * line), unless a completion is open, where Enter takes it. The editor is mounted in a shadow
 * root: its styles then go into a constructed stylesheet, which the page's Content-Security-Policy
 * (`style-src 'self'`, no inline `<style>`) allows.
 */
export function ExpressionEditor(props: {
  id: string;
  label: string;
  /** The text the editor starts with; from then on the editor owns it. */
  initialValue: string;
  onChange: (value: string) => void;
  onExecute: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  // The editor is built once and keeps its own text (setting it back from the props while keys
  // arrive would undo them); the latest callbacks are read through this.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const run = keymap.of([
      {
        key: 'Enter',
        run: () => {
          latest.current.onExecute();
          return true;
        },
      },
      { key: 'Shift-Enter', run: insertNewlineAndIndent },
    ]);
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: props.initialValue,
        extensions: [
          history(),
          closeBrackets(),
          bracketMatching(),
          autocompletion({ activateOnTyping: true }),
          promql.asExtension(),
          syntaxHighlighting(highlighting),
          placeholder('Expression (press Shift+Enter for newlines)'),
          EditorView.lineWrapping,
          theme,
          // Below the completion's own keys, which take Enter while a completion is open.
          Prec.high(run),
          keymap.of([
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
          ]),
          EditorView.contentAttributes.of({
            id: props.id,
            'aria-label': props.label,
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => editor.destroy();
  }, []);

  return <div class="expression-editor" ref={host} />;
}
