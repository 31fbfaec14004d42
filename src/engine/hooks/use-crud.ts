import { useCallback, useReducer, useRef, useState } from 'react';
import type { ListPageModel } from '../../model/types';
import type { FormMode } from '../contracts';
import { confirmDeleteText, MESSAGES } from '../list/rules';
import { type RecordRow, useEngineServices } from '../services';

/**
 * The list page's add, edit and delete (after refine's useForm and useDelete): which dialog is open,
 * the action states, and the delete with its confirm. A successful add or edit closes the dialog,
 * says so and reloads; a successful delete says so and steps the list back a page if needed.
 */

/** 0 normal, 1 prepared (dialog open, or a delete's confirm), 2 processing (the call runs). */
export type CrudStatus = 0 | 1 | 2;
export type CrudAction = 'add' | 'edit' | 'del';
export type CrudStates = Readonly<Record<CrudAction, CrudStatus>>;
export type CrudEvent = 'prepare' | 'start' | 'success' | 'failure' | 'cancel';

export const CRUD_IDLE: CrudStates = { add: 0, edit: 0, del: 0 };

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
      next = 2;
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

/** The success notice of a dialog's submit: a view with one submit URL says 提交成功. */
export function savedMessage(api: Pick<ListPageModel['api'], 'submit'>, mode: 'add' | 'edit'): string {
  return api.submit ? MESSAGES.submitted : mode === 'add' ? MESSAGES.added : MESSAGES.edited;
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
  /** Deletes rows after the confirm; true while the call runs. */
  remove(rows: readonly RecordRow<T>[]): Promise<void>;
  deleting: boolean;
}

export function useCrud<T>(
  model: Pick<ListPageModel, 'viewId' | 'api' | 'form'>,
  list: { reload: () => void; deleted: (count: number) => void },
): Crud<T> {
  const { data, notify } = useEngineServices();
  const [states, dispatch] = useReducer(crudReducer, CRUD_IDLE);
  const [dialog, setDialog] = useState<RecordDialogState<T> | null>(null);
  const [deleting, setDeleting] = useState(false);
  const step = useCallback((action: CrudAction, event: CrudEvent) => dispatch({ action, event }), []);
  const dialogRef = useRef(dialog);
  dialogRef.current = dialog;
  const { viewId, api } = model;
  const key = model.form.dialog.key;
  const { reload, deleted } = list;

  const open = useCallback(
    (state: RecordDialogState<T>) => {
      // A look writes nothing: no action is prepared.
      if (state.mode !== 'look') step(state.mode, 'prepare');
      setDialog(state);
    },
    [step],
  );
  const close = useCallback(() => {
    const current = dialogRef.current;
    if (current && current.mode !== 'look') step(current.mode, 'cancel');
    setDialog(null);
  }, [step]);
  const submitting = useCallback((mode: FormMode) => mode !== 'look' && step(mode, 'start'), [step]);
  const refused = useCallback((mode: FormMode) => mode !== 'look' && step(mode, 'failure'), [step]);
  const saved = useCallback(
    (mode: FormMode) => {
      if (mode === 'look') return;
      step(mode, 'success');
      notify.success(savedMessage(api, mode));
      setDialog(null);
      reload();
    },
    [step, notify, api, reload],
  );

  const remove = useCallback(
    async (rows: readonly RecordRow<T>[]) => {
      const ids = rows.map((r) => r[key]).filter((v) => v !== undefined && v !== null);
      if (!ids.length) return;
      step('del', 'prepare');
      if (!(await notify.confirm({ title: MESSAGES.confirmTitle, content: confirmDeleteText(ids.length) }))) {
        step('del', 'cancel');
        return;
      }
      step('del', 'start');
      setDeleting(true);
      try {
        await data.deleteMany({ resource: { viewId, api }, ids });
        step('del', 'success');
        notify.success(MESSAGES.deleted);
        deleted(ids.length);
      } catch {
        step('del', 'failure');
        step('del', 'cancel');
      } finally {
        setDeleting(false);
      }
    },
    [key, step, notify, data, viewId, api, deleted],
  );

  return { states, dialog, open, close, submitting, saved, refused, remove, deleting };
}
