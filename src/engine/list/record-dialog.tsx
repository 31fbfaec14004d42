import { Alert, Button, Modal, Spin } from 'antd';
import { useRef, useState } from 'react';
import type { ZodType } from 'zod';
import type { ListPageModel } from '../../model';
import type { EngineFormHandle, FormMode } from '../contracts';
import { EngineForm } from '../form/engine-form';
import type { FormValues } from '../form/payload';
import type { RecordDialogState } from '../hooks/use-crud';
import { useRecord } from '../hooks/use-record';

const TITLES: Record<FormMode, string> = { add: '新增', edit: '编辑', look: '查看' };

/**
 * The add, edit and look dialog: size from dialogOption, the record loaded by its key, initGroovy
 * values for add, the confirm button loading while submitting, a refused submit keeping what was
 * typed (each field the server names shows its message), cancel resetting, look without confirm.
 */
export function RecordDialog<T extends FormValues>({
  model,
  schema,
  state,
  fixedValues,
  onClose,
  onSubmitting,
  onSaved,
  onRefused,
}: {
  model: ListPageModel;
  schema: ZodType<T>;
  state: RecordDialogState<T>;
  /** Route query values (a foreign key) every add carries. */
  fixedValues?: Record<string, unknown>;
  onClose: () => void;
  onSubmitting: (mode: FormMode) => void;
  onSaved: (mode: FormMode) => void;
  onRefused: (mode: FormMode) => void;
}) {
  const { mode, row } = state;
  const dialog = model.form.dialog;
  const key = dialog.key;
  const keyValue = row?.[key];
  const formRef = useRef<EngineFormHandle>(null);
  const [submitting, setSubmitting] = useState(false);
  const record = useRecord({ model, mode, id: keyValue, fallback: row, onClose });
  const loaded = record.load;

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
            onSubmitting(mode);
            try {
              await record.submit(payload);
            } catch (e) {
              onRefused(mode);
              throw e;
            }
            onSaved(mode);
          }}
        />
      )}
    </Modal>
  );
}
