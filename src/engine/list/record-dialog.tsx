import { Button, Modal } from 'antd';
import { useRef } from 'react';
import type { ZodType } from 'zod';
import type { ListPageModel } from '../../model';
import type { EngineFormHandle, FormMode } from '../contracts';
import { EngineForm } from '../form/engine-form';
import type { FormValues } from '../form/payload';
import { RecordLoadNotice, useFormSubmit, WritableNotice, writableLabels } from '../form/record-form';
import type { RecordDialogState } from '../hooks/use-crud';
import { useRecord } from '../hooks/use-record';

const TITLES: Record<FormMode, string> = { add: '新增', edit: '编辑', look: '查看' };

/**
 * The add, edit and look dialog: size from dialogOption, the record loaded by its key, initGroovy
 * values for add, the confirm button loading while submitting, a refused submit keeping what was
 * typed (each field the server names shows its message), cancel resetting, look without confirm. An
 * edit of a record the user may change only some fields of (its answer's `writable`) says which and
 * locks the rest; one it may change none of opens as a look.
 */
export function RecordDialog<T extends FormValues>({
  model,
  schema,
  state,
  title,
  fixedValues,
  onClose,
  onSubmitting,
  onSaved,
  onRefused,
}: {
  model: ListPageModel;
  schema: ZodType<T>;
  state: RecordDialogState<T>;
  /** The dialog's title when not its mode's (a relation's button label). */
  title?: string;
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
  const { submitting, submit } = useFormSubmit(formRef);
  const record = useRecord({ model, mode, id: keyValue, fallback: row, onClose });
  const loaded = record.load;
  const labels = writableLabels(model.form, mode === 'edit' && loaded.status === 'ready' ? loaded.writable : undefined);
  const shown: FormMode = labels?.length === 0 ? 'look' : mode;

  const cancel = () => {
    formRef.current?.reset();
    onClose();
  };

  const fixed = mode === 'edit' ? { ...fixedValues, [key]: keyValue } : mode === 'add' ? fixedValues : undefined;

  return (
    <Modal
      open
      title={title ?? TITLES[shown]}
      width={dialog.width}
      onCancel={cancel}
      maskClosable={false}
      destroyOnHidden
      footer={
        shown === 'look'
          ? [
              <Button key="close" onClick={cancel}>
                关闭
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={cancel}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={submitting} disabled={loaded.status !== 'ready'} onClick={() => void submit()}>
                确定
              </Button>,
            ]
      }
    >
      <RecordLoadNotice load={loaded} closing="窗口" />
      {loaded.status === 'ready' && <WritableNotice labels={labels} />}
      {loaded.status === 'ready' && (
        <EngineForm
          ref={formRef}
          form={model.form}
          schema={schema}
          mode={shown}
          initialValues={loaded.values}
          fixedValues={fixed}
          writable={shown === 'edit' ? loaded.writable : undefined}
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
