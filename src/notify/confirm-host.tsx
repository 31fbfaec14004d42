import { Modal } from 'antd';
import { useEffect, useRef } from 'react';
import type { PendingConfirm } from './notifier-bridge';

/** Opens one confirm dialog per waiting question, in order, and answers it with the user's choice. */
export function ConfirmHost({ pending, settle }: { pending: PendingConfirm[]; settle: (id: number) => void }) {
  const [modal, holder] = Modal.useModal();
  const opened = useRef(new Set<number>());
  useEffect(() => {
    for (const p of pending) {
      if (opened.current.has(p.id)) continue;
      opened.current.add(p.id);
      const done = (ok: boolean) => {
        opened.current.delete(p.id);
        settle(p.id);
        p.answer(ok);
      };
      modal.confirm({
        title: p.options.title,
        content: p.options.content,
        okText: p.options.okText ?? '确定',
        cancelText: p.options.cancelText ?? '取消',
        onOk: () => done(true),
        onCancel: () => done(false),
      });
    }
  }, [pending, modal, settle]);
  return holder;
}
