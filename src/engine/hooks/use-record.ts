import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListPageModel } from '../../model';
import type { FormMode } from '../contracts';
import { type Row, useEngineServices } from '../services';

/**
 * One record in a form, for the list's dialog and the full-page form alike: its values loaded (the
 * detail by key for edit and look, the server's initial values for an add with initGroovy), and
 * its submit (add or update). A detail that fails to load closes the form after RECORD_CLOSE_MS;
 * so does the full-page form after a successful submit, once its notice has been seen.
 */

/** How long a form stays after a failed detail load, or a full page after its successful submit. */
export const RECORD_CLOSE_MS = 1000;

/** `writable`: the only fields the caller may change of the loaded record, when the server lists them. */
export type RecordLoad =
  | { status: 'loading' }
  | { status: 'ready'; values: Row | undefined; writable?: readonly string[] }
  | { status: 'failed' };

export interface RecordOptions {
  model: Pick<ListPageModel, 'viewId' | 'api' | 'form'>;
  mode: FormMode;
  /** The key's value (edit, look). */
  id?: unknown;
  /** The values to show when the detail answers no record (the list row the dialog opened from). */
  fallback?: Row;
  /** Closes the form: RECORD_CLOSE_MS after a failed detail load, and after a submit when `closeOnSubmit`. */
  onClose: () => void;
  closeOnSubmit?: boolean;
  /** The add form's initial values (initGroovy) when not the data provider's preAdd. */
  initialValues?: (signal: AbortSignal) => Promise<Row | undefined>;
}

export interface RecordHandle {
  load: RecordLoad;
  /** Adds or updates; rejects with the data provider's HttpError (its `errors` name the fields). */
  submit(values: Row): Promise<void>;
}

export function useRecord({ model, mode, id, fallback, onClose, closeOnSubmit, initialValues }: RecordOptions): RecordHandle {
  const { data } = useEngineServices();
  const { viewId, api } = model;
  const key = model.form.dialog.key;
  const initGroovy = model.form.dialog.initGroovy;
  const [load, setLoad] = useState<RecordLoad>(() =>
    mode === 'add' && !initGroovy ? { status: 'ready', values: undefined } : { status: 'loading' },
  );
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  const initialRef = useRef(initialValues);
  initialRef.current = initialValues;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const closeLater = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => closeRef.current(), RECORD_CLOSE_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const resource = { viewId, api };
    if (mode === 'add') {
      if (!initGroovy) {
        setLoad({ status: 'ready', values: undefined });
        return;
      }
      setLoad({ status: 'loading' });
      // Without the server's initial values the form's defaults still apply: no notice.
      const initial = initialRef.current;
      (initial ? initial(signal) : data.preAdd({ resource, signal, silent: true })).then(
        (values) => !signal.aborted && setLoad({ status: 'ready', values }),
        () => !signal.aborted && setLoad({ status: 'ready', values: undefined }),
      );
    } else {
      setLoad({ status: 'loading' });
      data.getOne({ resource, key, id, signal }).then(
        (read) =>
          !signal.aborted &&
          setLoad(
            read?.writable
              ? { status: 'ready', values: read.values, writable: read.writable }
              : { status: 'ready', values: read?.values ?? fallbackRef.current },
          ),
        () => {
          if (signal.aborted) return;
          setLoad({ status: 'failed' });
          closeLater();
        },
      );
    }
    return () => controller.abort();
  }, [data, viewId, api, key, id, mode, initGroovy, closeLater]);

  const submit = useCallback(
    async (values: Row) => {
      if (mode === 'look') return;
      const resource = { viewId, api };
      // A view's own submit URL learns which view posts, as the full-page form tells it.
      const body = api.submit ? { generalId: viewId, ...values } : values;
      await (mode === 'edit' ? data.update({ resource, values: body }) : data.create({ resource, values: body }));
      if (closeOnSubmit) closeLater();
    },
    [data, viewId, api, mode, closeOnSubmit, closeLater],
  );

  return { load, submit };
}
