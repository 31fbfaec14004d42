import { Alert, Spin } from 'antd';
import { type RefObject, useState } from 'react';
import type { EngineFormHandle } from '../contracts';
import type { RecordLoad } from '../hooks/use-record';

/** A spinner while the record loads; when loading failed, the notice that the page or dialog closes (it closes itself). */
export function RecordLoadNotice({ load, closing }: { load: RecordLoad; closing: '页面' | '窗口' }) {
  if (load.status === 'loading') return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (load.status === 'failed') return <Alert type="error" showIcon title={`数据加载失败，${closing}即将关闭`} />;
  return null;
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
