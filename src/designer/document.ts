import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The lifecycle both designers share for the document they edit: loading it with its version, a
 * draft of unsaved edits kept in this browser and offered back on the next opening, whether there
 * are unsaved edits, asking before the page is left with them, and a save that sends the version it
 * started from, so that a save made by someone else since is answered 409 (a conflict to settle)
 * instead of being overwritten. The designer keeps its own editing state and hands the hook the
 * document as it would be saved.
 */

export type LoadState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' };

/** Registers the question asked before the page's tab closes; answers the function that removes it. */
export type CloseGuard = (ask: () => Promise<boolean>) => () => void;

/** Unsaved edits found in the browser when the document opened. */
export interface FoundDraft<D> {
  doc: D;
  /** When the edits were kept (ms since the epoch). */
  at: number;
  /** Whether the document has been saved since the edits began: restoring them overwrites that save. */
  stale: boolean;
}

/** What the browser stores: the edits, the saved document they started from (as its snapshot) and when. */
interface StoredDraft {
  doc: unknown;
  base: string;
  at: number;
}

export interface DesignDocumentOptions<D> {
  /** The document's id: another id loads again. */
  id: number;
  /** Reads the saved document and the version it carries. */
  load(signal: AbortSignal): Promise<{ doc: D; version?: number }>;
  /** The document as saved, as text: documents with the same text are the same. */
  snapshot(doc: D): string;
  /** The edited document; undefined until the designer has taken the loaded one. */
  current: D | undefined;
  /** Whether the edited document differs from the saved one (by default, their snapshots differ). */
  changed?(current: D, saved: D): boolean;
  /** Where the browser keeps the unsaved edits. */
  draftKey: string;
  /** A stored draft's document as the designer edits it, or undefined when it is not one. */
  readDraft(doc: unknown): D | undefined;
  /** How long after the last edit the draft is written (ms). */
  draftDelay: number;
  /** Tells the user why a save failed, other than a conflict. */
  reportError?(e: unknown): void;
  /** The tag bar's close guard, and the question it asks while there are unsaved edits. */
  closeGuard?: CloseGuard;
  confirmClose?: () => Promise<boolean>;
}

export type SaveResult = 'saved' | 'conflict' | 'failed';

export interface DesignDocument<D> {
  load: LoadState;
  /** The document as last loaded or saved. */
  saved: D | undefined;
  /** Counts the loads that finished: the designer starts editing afresh from `saved` when it moves. */
  loads: number;
  /** The version the next save sends. */
  version: number | undefined;
  dirty: boolean;
  /** Unsaved edits found on opening, until taken or dropped; no draft is written meanwhile. */
  found: FoundDraft<D> | undefined;
  /** Takes the found edits (the designer applies them) or drops them from the browser. */
  takeDraft(): D | undefined;
  dropDraft(): void;
  /** Forgets the kept edits, as when leaving on purpose without saving. */
  discardDraft(): void;
  /** Loads again; `discard` drops the kept edits first. */
  reload(discard?: boolean): void;
  /**
   * Saves `doc` through `send`, which answers the version the server now holds. Without `overwrite`
   * it is sent the version the edits started from; a 409 then sets `conflict` and keeps the edits.
   * Other failures go to `reportError` and answer 'failed'.
   */
  save(doc: D, send: (version: number | undefined) => Promise<number | undefined>, overwrite?: boolean): Promise<SaveResult>;
  saving: boolean;
  /** A save was refused because someone else saved first. */
  conflict: boolean;
  dismissConflict(): void;
  /** Takes a change saved by another call (publishing, say) as the saved document. */
  markSaved(doc: D, version?: number): void;
}

const isConflict = (e: unknown) => typeof e === 'object' && e !== null && (e as { status?: unknown }).status === 409;

function readStored(key: string): StoredDraft | undefined {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredDraft | null;
    return v && typeof v === 'object' && typeof v.at === 'number' && typeof v.base === 'string' && v.doc !== undefined ? v : undefined;
  } catch {
    return undefined;
  }
}

function writeStored(key: string, draft: StoredDraft | undefined): void {
  try {
    if (draft) localStorage.setItem(key, JSON.stringify(draft));
    else localStorage.removeItem(key);
  } catch {
    // A full or blocked storage only loses the copy kept across a reload; the edits stay on screen.
  }
}

export function useDesignDocument<D>(options: DesignDocumentOptions<D>): DesignDocument<D> {
  const { id, current, draftKey, draftDelay, closeGuard, confirmClose } = options;
  const latest = useRef(options);
  latest.current = options;
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const [saved, setSaved] = useState<{ doc: D; text: string } | undefined>();
  const [loads, setLoads] = useState(0);
  const [version, setVersion] = useState<number | undefined>();
  const [found, setFound] = useState<FoundDraft<D> | undefined>();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks for the document again
  useEffect(() => {
    const controller = new AbortController();
    const o = latest.current;
    setLoad({ status: 'loading' });
    o.load(controller.signal)
      .then(({ doc, version: v }) => {
        if (controller.signal.aborted) return;
        const text = o.snapshot(doc);
        const stored = readStored(o.draftKey);
        const draft = stored && o.readDraft(stored.doc);
        if (draft && o.snapshot(draft) !== text) setFound({ doc: draft, at: stored.at, stale: stored.base !== text });
        else {
          setFound(undefined);
          if (stored) writeStored(o.draftKey, undefined);
        }
        setSaved({ doc, text });
        setVersion(v);
        setConflict(false);
        setLoads((n) => n + 1);
        setLoad({ status: 'ready' });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'error', message: e instanceof Error ? e.message : String(e) });
      });
    return () => controller.abort();
  }, [id, attempt]);

  const dirty =
    current !== undefined &&
    saved !== undefined &&
    (options.changed ? options.changed(current, saved.doc) : options.snapshot(current) !== saved.text);

  // The unsaved edits are kept in the browser a moment after the last one, and forgotten once saved
  // or undone; a draft found on opening stays untouched until it is taken or dropped.
  useEffect(() => {
    if (load.status !== 'ready' || found || !saved || current === undefined) return;
    const timer = window.setTimeout(
      () => writeStored(draftKey, dirty ? { doc: current, base: saved.text, at: Date.now() } : undefined),
      draftDelay,
    );
    return () => window.clearTimeout(timer);
  }, [current, dirty, saved, found, load.status, draftKey, draftDelay]);

  // Leaving the browser page with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Closing the page's tab with unsaved edits asks first (the edits stay kept in the browser either way).
  useEffect(() => {
    if (!dirty || !closeGuard || !confirmClose) return;
    return closeGuard(confirmClose);
  }, [dirty, closeGuard, confirmClose]);

  const takeDraft = useCallback(() => {
    const d = found?.doc;
    setFound(undefined);
    return d;
  }, [found]);
  const dropDraft = useCallback(() => {
    writeStored(latest.current.draftKey, undefined);
    setFound(undefined);
  }, []);
  const discardDraft = useCallback(() => writeStored(latest.current.draftKey, undefined), []);
  const reload = useCallback((discard = false) => {
    if (discard) writeStored(latest.current.draftKey, undefined);
    setConflict(false);
    setAttempt((n) => n + 1);
  }, []);
  const markSaved = useCallback((doc: D, v?: number) => {
    setSaved({ doc, text: latest.current.snapshot(doc) });
    if (v !== undefined) setVersion(v);
  }, []);
  const dismissConflict = useCallback(() => setConflict(false), []);

  const versionRef = useRef(version);
  versionRef.current = version;
  const save = useCallback(
    async (doc: D, send: (version: number | undefined) => Promise<number | undefined>, overwrite = false): Promise<SaveResult> => {
      setSaving(true);
      try {
        const next = await send(overwrite ? undefined : versionRef.current);
        versionRef.current = next ?? versionRef.current;
        setSaved({ doc, text: latest.current.snapshot(doc) });
        setVersion(versionRef.current);
        writeStored(latest.current.draftKey, undefined);
        setConflict(false);
        return 'saved';
      } catch (e) {
        if (!isConflict(e)) {
          latest.current.reportError?.(e);
          return 'failed';
        }
        setConflict(true);
        return 'conflict';
      } finally {
        setSaving(false);
      }
    },
    [],
  );

  return {
    load,
    saved: saved?.doc,
    loads,
    version,
    dirty,
    found,
    takeDraft,
    dropDraft,
    discardDraft,
    reload,
    save,
    saving,
    conflict,
    dismissConflict,
    markSaved,
  };
}

/**
 * Calls `start` with the saved document once for each load that finishes: the designer starts its
 * edits afresh from it. A save moves `saved` too and starts nothing, so the edits made meanwhile stay.
 */
export function useEachLoad<D>(document: Pick<DesignDocument<D>, 'loads' | 'saved'>, start: (saved: D, loads: number) => void): void {
  const { loads, saved } = document;
  const taken = useRef(0);
  const latest = useRef(start);
  latest.current = start;
  useEffect(() => {
    if (loads === 0 || !saved || loads === taken.current) return;
    taken.current = loads;
    latest.current(saved, loads);
  }, [loads, saved]);
}
