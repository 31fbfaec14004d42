import { autocompletion } from '@codemirror/autocomplete';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';

/**
 * The data-view SQL editor: CodeMirror 6 with PostgreSQL highlighting and keyword completion. It is
 * loaded only by the data-view page (a lazy chunk). Ctrl/⌘+Enter runs the query; Tab indents;
 * Ctrl/⌘+Z undoes.
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

/** Marks the changes the history itself makes, so that they are not recorded again. */
const fromHistory = Annotation.define<boolean>();
const GROUP_MS = 600;

/**
 * Undo and redo (Ctrl/⌘+Z, Ctrl/⌘+Shift+Z or Ctrl+Y) by snapshots of the text and cursor. Typing
 * within 600 ms of the last change is one step; a deletion or paste of more than one character, and a
 * run, start a new one. CodeMirror's own history lives in
 * @codemirror/commands, which this project does not ship.
 */
function snapshotHistory(): { extension: Extension; breakGroup(): void } {
  type Snapshot = { doc: string; cursor: number };
  const undo: Snapshot[] = [];
  const redo: Snapshot[] = [];
  let last = 0;
  const restore = (view: EditorView, from: Snapshot[], to: Snapshot[]) => {
    const snap = from.pop();
    if (!snap) return false;
    to.push({ doc: view.state.doc.toString(), cursor: view.state.selection.main.head });
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: snap.doc },
      selection: { anchor: Math.min(snap.cursor, snap.doc.length) },
      annotations: fromHistory.of(true),
      scrollIntoView: true,
    });
    last = 0;
    return true;
  };
  const extension = [
    EditorView.updateListener.of((u) => {
      if (!u.docChanged || u.transactions.some((t) => t.annotation(fromHistory))) return;
      const now = Date.now();
      let bulk = false;
      for (const t of u.transactions)
        t.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
          if (toA - fromA > 1 || inserted.length > 1) bulk = true;
        });
      if (bulk || now - last > GROUP_MS) {
        undo.push({ doc: u.startState.doc.toString(), cursor: u.startState.selection.main.head });
        if (undo.length > 200) undo.shift();
      }
      last = now;
      redo.length = 0;
    }),
    // Read from the event itself: a shifted Z may arrive as 'z', which a Mod-z binding would also take.
    EditorView.domEventHandlers({
      keydown: (e, view) => {
        if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
        const key = e.key.toLowerCase();
        const done =
          key === 'z'
            ? e.shiftKey
              ? restore(view, redo, undo)
              : restore(view, undo, redo)
            : key === 'y' && e.ctrlKey
              ? restore(view, redo, undo)
              : null;
        if (done === null) return false;
        e.preventDefault();
        return true;
      },
    }),
  ];
  return {
    extension,
    breakGroup: () => {
      last = 0;
    },
  };
}

export default function SqlEditor({ value, onChange, onRun, readOnly = false }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by the editor's handlers that were made once.
  const handlers = useRef({ onChange, onRun });
  handlers.current = { onChange, onRun };
  const editable = useRef(new Compartment());
  const [history] = useState(snapshotHistory);

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
          history.extension,
          placeholder('select … from …'),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                history.breakGroup();
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
