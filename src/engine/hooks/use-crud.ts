import { useCallback, useReducer, useRef, useState } from 'react';
import type { ListPageModel } from '../../model';
import type { FormMode } from '../contracts';
import { confirmDeleteText, MESSAGES } from '../list/rules';
import { type RecordRow, type Row, useEngineServices } from '../services';
import type { ListSource } from './use-list-query';

/**
 * A list's add, edit and delete (after refine's useForm and useDelete): which dialog is open, the
 * action states, and the delete with its confirm. A successful add or edit closes the dialog, says so
 * and reloads; a successful delete says so and steps the list back a page if needed. A failure is
 * shown by the data provider (or, for a dialog, in the dialog): pages do not notify for these.
 */

/** 0 normal, 1 prepared (dialog open, or a delete's confirm), 2 processing (the call runs). */
export type CrudStatus = 0 | 1 | 2;
/** look is the read-only dialog: it is prepared while open and never processes. */
export type CrudAction = 'add' | 'edit' | 'del' | 'look';
export type CrudStates = Readonly<Record<CrudAction, CrudStatus>>;
export type CrudEvent = 'prepare' | 'start' | 'success' | 'failure' | 'cancel';

export const CRUD_IDLE: CrudStates = { add: 0, edit: 0, del: 0, look: 0 };

/** The record dialog's status: processing while an add or edit runs, prepared while any dialog (a look too) is open. */
export function crudDialogStatus(states: CrudStates): CrudStatus {
  if (states.add === 2 || states.edit === 2) return 2;
  return states.add || states.edit || states.look ? 1 : 0;
}

/**
 * Pure. prepare: 0 → 1; start: → 2; success: → 0 (the caller refreshes); failure: 2 → 1; cancel: → 0.
 * The same object when nothing changed.
 */
export function crudTransition(states: CrudStates, action: CrudAction, event: CrudEvent): CrudStates {
  const now = states[action];
  let next: CrudStatus = now;
  switch (event) {
    case 'prepare':
      next = now === 2 ? 2 : 1;
      break;
    case 'start':
      // A look has no confirm button: nothing of it runs.
      next = action === 'look' ? now : 2;
      break;
    case 'success':
    case 'cancel':
      next = 0;
      break;
    case 'failure':
      next = 1;
      break;
  }
  return next === now ? states : { ...states, [action]: next };
}

const crudReducer = (states: CrudStates, e: { action: CrudAction; event: CrudEvent }) => crudTransition(states, e.action, e.event);

/** The success notice of a dialog's submit: a view with one submit URL says 操作成功, as a form save. */
export function savedMessage(api: Pick<ListPageModel['api'], 'submit'>, mode: 'add' | 'edit'): string {
  return api.submit ? MESSAGES.done : mode === 'add' ? MESSAGES.added : MESSAGES.edited;
}

/** What the CRUD operations say; a view's page says 新增成功, 编辑成功 (操作成功) and 删除成功. */
export interface CrudTexts {
  added: string;
  edited: string;
  deleted: string;
  confirmTitle: string;
  /** The delete's confirm for these rows. */
  confirmDelete(rows: readonly Row[]): string;
}

export const CRUD_TEXTS: CrudTexts = {
  added: MESSAGES.added,
  edited: MESSAGES.edited,
  deleted: MESSAGES.deleted,
  confirmTitle: MESSAGES.confirmTitle,
  confirmDelete: (rows) => confirmDeleteText(rows.length),
};

export interface CrudOptions {
  /** The rows' key field; `id` when not given. */
  key?: string;
  /** Texts other than the view pages' ones. */
  texts?: Partial<CrudTexts>;
}

/** A view's CRUD options: its dialog's key, and 操作成功 for a view with one submit URL. */
export function viewCrudOptions(model: Pick<ListPageModel, 'api' | 'form'>): CrudOptions {
  return { key: model.form.dialog.key, texts: { added: savedMessage(model.api, 'add'), edited: savedMessage(model.api, 'edit') } };
}

export interface RecordDialogState<T> {
  mode: FormMode;
  /** The row the dialog opened from (edit, look). */
  row?: RecordRow<T>;
}

export interface Crud<T> {
  states: CrudStates;
  dialog: RecordDialogState<T> | null;
  open(state: RecordDialogState<T>): void;
  close(): void;
  /** The dialog's submit: started, then saved (closes, notifies, reloads) or refused (the dialog stays). */
  submitting(mode: FormMode): void;
  saved(mode: FormMode): void;
  refused(mode: FormMode): void;
  /** Deletes rows after the confirm (`confirm`, else the texts' one for them); resolves whether they were deleted. */
  remove(rows: readonly RecordRow<T>[], confirm?: string): Promise<boolean>;
  /** True while a delete runs. */
  deleting: boolean;
}

/** What a delete needs from the page: its confirm, its call, its del state and its loading flag. */
export interface DeleteSteps {
  key: string;
  texts: CrudTexts;
  /** The confirm's text; else the texts' one for the rows. */
  confirm?: string;
  step(action: CrudAction, event: CrudEvent): void;
  ask(o: { title: string; content: string }): Promise<boolean>;
  call(ids: unknown[]): Promise<unknown>;
  setDeleting(on: boolean): void;
  /** After a successful delete: notice, step back a page, reload. */
  done(count: number): void;
}

/**
 * Deletes rows after the confirm; resolves whether they were deleted. A failed delete only stops the
 * loading: del returns to prepared, the selection, page and rows stay as they were.
 */
export async function deleteRecords(rows: readonly Row[], s: DeleteSteps): Promise<boolean> {
  const kept = rows.filter((r) => r[s.key] !== undefined && r[s.key] !== null);
  const ids = kept.map((r) => r[s.key]);
  if (!ids.length) return false;
  s.step('del', 'prepare');
  if (!(await s.ask({ title: s.texts.confirmTitle, content: s.confirm ?? s.texts.confirmDelete(kept) }))) {
    s.step('del', 'cancel');
    return false;
  }
  s.step('del', 'start');
  s.setDeleting(true);
  try {
    await s.call(ids);
  } catch {
    s.step('del', 'failure');
    return false;
  } finally {
    s.setDeleting(false);
  }
  s.step('del', 'success');
  s.done(ids.length);
  return true;
}

export function useCrud<T, R = unknown>(
  source: ListSource<R>,
  list: { reload: () => void; deleted: (count: number) => void },
  options: CrudOptions = {},
): Crud<T> {
  const { notify } = useEngineServices();
  const { resource, dataProvider } = source;
  const [states, dispatch] = useReducer(crudReducer, CRUD_IDLE);
  const [dialog, setDialog] = useState<RecordDialogState<T> | null>(null);
  const [deleting, setDeleting] = useState(false);
  const step = useCallback((action: CrudAction, event: CrudEvent) => dispatch({ action, event }), []);
  const dialogRef = useRef(dialog);
  dialogRef.current = dialog;
  const key = options.key ?? 'id';
  const textsRef = useRef(CRUD_TEXTS);
  textsRef.current = { ...CRUD_TEXTS, ...options.texts };
  const { reload, deleted } = list;

  const open = useCallback(
    (state: RecordDialogState<T>) => {
      // A look writes nothing, but its open dialog counts as prepared.
      step(state.mode, 'prepare');
      setDialog(state);
    },
    [step],
  );
  const close = useCallback(() => {
    const current = dialogRef.current;
    if (current) step(current.mode, 'cancel');
    setDialog(null);
  }, [step]);
  const submitting = useCallback((mode: FormMode) => mode !== 'look' && step(mode, 'start'), [step]);
  const refused = useCallback((mode: FormMode) => mode !== 'look' && step(mode, 'failure'), [step]);
  const saved = useCallback(
    (mode: FormMode) => {
      if (mode === 'look') return;
      step(mode, 'success');
      notify.success(mode === 'add' ? textsRef.current.added : textsRef.current.edited);
      setDialog(null);
      reload();
    },
    [step, notify, reload],
  );

  const remove = useCallback(
    (rows: readonly RecordRow<T>[], confirm?: string): Promise<boolean> =>
      deleteRecords(rows, {
        key,
        texts: textsRef.current,
        confirm,
        step,
        ask: (o) => notify.confirm(o),
        call: (ids) => dataProvider.deleteMany({ resource, ids }),
        setDeleting,
        done: (count) => {
          notify.success(textsRef.current.deleted);
          deleted(count);
        },
      }),
    [key, step, notify, dataProvider, resource, deleted],
  );

  return { states, dialog, open, close, submitting, saved, refused, remove, deleting };
}
