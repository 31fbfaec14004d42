import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { ZodType } from 'zod';
import type { ListPageModel } from '../../model/types';
import { http } from '../../request';
import type { EngineFormHandle, FormMode } from '../contracts';
import { EngineForm } from '../form/engine-form';
import type { Row } from './list-table';

/** A failed detail load closes the dialog after this long (lowcode-engine.md §4). */
export const DETAIL_FAILURE_CLOSE_MS = 1000;

const TITLES: Record<FormMode, string> = { add: '新增', edit: '编辑', look: '查看' };

export interface RecordDialogState {
  mode: FormMode;
  /** The row the dialog opened from (edit, look). */
  row?: Row;
}

type Loaded = { status: 'loading' } | { status: 'ready'; values: Record<string, unknown> | undefined } | { status: 'failed' };

/** `{status, data}` answers (preAdd) carry the values in data; a detail answers the record itself. */
function recordOf(answer: unknown): Record<string, unknown> | undefined {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  const a = answer as Record<string, unknown>;
  if ('data' in a && a.data && typeof a.data === 'object' && !Array.isArray(a.data)) return a.data as Record<string, unknown>;
  return a;
}

/**
 * The add, edit and look dialog (lowcode-engine.md §2.2, §4): size from dialogOption, the record
 * loaded with detailUrl (generalId + key), initGroovy values for add, the confirm button loading
 * while submitting, a failed submit keeping what was typed, cancel resetting, look without confirm.
 */
export function RecordDialog({
  model,
  schema,
  state,
  fixedValues,
  onClose,
  onSubmitting,
  onSubmit,
}: {
  model: ListPageModel;
  schema: ZodType;
  state: RecordDialogState;
  /** Route query values (a foreign key) every add carries. */
  fixedValues?: Record<string, unknown>;
  onClose: () => void;
  /** Called when a submit starts. */
  onSubmitting: () => void;
  /** Sends the payload; rejects on failure (the request layer has told the user). */
  onSubmit: (mode: FormMode, payload: Record<string, unknown>) => Promise<void>;
}) {
  const { mode, row } = state;
  const dialog = model.form.dialog;
  const key = dialog.key;
  const keyValue = row?.[key];
  const formRef = useRef<EngineFormHandle>(null);
  const [submitting, setSubmitting] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>(() =>
    mode === 'add' && !dialog.initGroovy ? { status: 'ready', values: undefined } : { status: 'loading' },
  );

  // One load per opening: the dialog is mounted afresh for each (keyed by mode and row).
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (mode === 'add') {
      if (!dialog.initGroovy) return;
      // initGroovy: the server's initial values; without them the form's defaults still apply.
      http
        .post(model.api.preAdd, {}, { silent: true })
        .then((answer) => live && setLoaded({ status: 'ready', values: recordOf(answer) }))
        .catch(() => live && setLoaded({ status: 'ready', values: undefined }));
    } else {
      http
        .get(model.api.detail, { generalId: model.viewId, [key]: keyValue })
        .then((answer) => live && setLoaded({ status: 'ready', values: recordOf(answer) ?? row }))
        .catch(() => {
          if (!live) return;
          setLoaded({ status: 'failed' });
          timer = setTimeout(() => live && onClose(), DETAIL_FAILURE_CLOSE_MS);
        });
    }
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, []);

  const confirm = async () => {
    const form = formRef.current;
    if (!form || submitting) return;
    setSubmitting(true);
    try {
      await form.submit();
    } finally {
      setSubmitting(false);
    }
  };

  const cancel = () => {
    formRef.current?.reset();
    onClose();
  };

  const fixed = mode === 'edit' ? { ...fixedValues, [key]: keyValue } : mode === 'add' ? fixedValues : undefined;

  return (
    <Modal
      open
      title={TITLES[mode]}
      width={dialog.width}
      onCancel={cancel}
      maskClosable={false}
      destroyOnHidden
      footer={
        mode === 'look'
          ? [
              <Button key="close" onClick={cancel}>
                关闭
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={cancel}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={submitting} disabled={loaded.status !== 'ready'} onClick={() => void confirm()}>
                确定
              </Button>,
            ]
      }
    >
      {loaded.status === 'loading' && <Spin style={{ display: 'block', margin: '48px auto' }} />}
      {loaded.status === 'failed' && <Alert type="error" showIcon title="数据加载失败，窗口即将关闭" />}
      {loaded.status === 'ready' && (
        <EngineForm
          ref={formRef}
          form={model.form}
          schema={schema}
          mode={mode}
          initialValues={loaded.values}
          fixedValues={fixed}
          onSubmit={async (payload) => {
            onSubmitting();
            await onSubmit(mode, payload);
          }}
        />
      )}
    </Modal>
  );
}
