import { autocompletion } from '@codemirror/autocomplete';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'react';

/**
 * The data-view SQL editor: CodeMirror 6 with PostgreSQL highlighting and keyword completion. It is
 * loaded only by the data-view page (a lazy chunk). Ctrl/⌘+Enter runs the query; Tab indents.
 */
export interface SqlEditorProps {
  value: string;
  onChange(value: string): void;
  onRun(): void;
  readOnly?: boolean;
}

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid #d9d9d9', borderRadius: '6px', background: '#fff' },
  '&.cm-focused': { outline: 'none', borderColor: '#2F6EFF', boxShadow: '0 0 0 2px rgba(47,110,255,0.12)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '220px', maxHeight: '420px' },
  '.cm-content': { padding: '8px 0' },
});

export default function SqlEditor({ value, onChange, onRun, readOnly = false }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by the editor's handlers that were made once.
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };
  const editable = useRef(new Compartment());

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once; value and readOnly are synced below
  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          sql({ dialect: PostgreSQL }),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          autocompletion(),
          placeholder('select … from …'),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                handlers.current.onRun();
                return true;
              },
            },
            {
              key: 'Tab',
              run: (ed) => {
                ed.dispatch(ed.state.replaceSelection('  '));
                return true;
              },
            },
          ]),
          editable.current.of(EditorView.editable.of(!readOnly)),
          EditorView.contentAttributes.of({ 'aria-label': 'SQL', 'data-testid': 'sql-editor' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // A value set from outside (another data view opened) replaces the text; the user's own typing is already in it.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(EditorView.editable.of(!readOnly)) });
  }, [readOnly]);

  return <div ref={host} />;
}
