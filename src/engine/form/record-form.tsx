import { Alert, Spin } from 'antd';
import { type RefObject, useState } from 'react';
import type { FormModel } from '../../model';
import type { EngineFormHandle } from '../contracts';
import type { RecordLoad } from '../hooks/use-record';

/** A spinner while the record loads; when loading failed, the notice that the page or dialog closes (it closes itself). */
export function RecordLoadNotice({ load, closing }: { load: RecordLoad; closing: '页面' | '窗口' }) {
  if (load.status === 'loading') return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (load.status === 'failed') return <Alert type="error" showIcon title={`数据加载失败，${closing}即将关闭`} />;
  return null;
}

/**
 * The labels of the fields a record's `writable` lets the user change, in the form's order (fields the
 * form never draws left out); undefined when the user may change the whole record. None: look only.
 */
export function writableLabels(form: FormModel, writable: readonly string[] | undefined): string[] | undefined {
  return writable && form.fields.filter((f) => f.show !== 4 && writable.includes(f.name)).map((f) => f.label);
}

/** Above a form of a record the user may change only some of: which fields, or that it may only look. */
export function WritableNotice({ labels }: { labels: string[] | undefined }) {
  if (!labels) return null;
  const title = labels.length ? `您是该记录的相关方，只能修改：${labels.join('、')}` : '该记录由其他企业创建，您只能查看';
  return <Alert type="info" showIcon title={title} style={{ marginBottom: 16 }} data-writable-notice="" />;
}

/** Submits the form behind the handle, `submitting` meanwhile; a call while one runs does nothing. */
export function useFormSubmit(ref: RefObject<EngineFormHandle | null>): { submitting: boolean; submit: () => Promise<void> } {
  const [submitting, setSubmitting] = useState(false);
  const submit = async () => {
    const form = ref.current;
    if (!form || submitting) return;
    setSubmitting(true);
    try {
      await form.submit();
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, submit };
}
