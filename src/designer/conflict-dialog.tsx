import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';

/**
 * Asked when a save was refused because someone else saved first: 重新加载 drops the edits and shows
 * the newer save, 覆盖保存 replaces it with these edits, 取消 keeps editing.
 */
export function ConflictDialog({
  title,
  children,
  onCancel,
  onReload,
  onOverwrite,
}: {
  title: string;
  children: ReactNode;
  onCancel(): void;
  onReload(): void;
  onOverwrite(): void;
}) {
  return (
    <Modal
      open
      title={title}
      onCancel={onCancel}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          取消
        </Button>,
        <Button key="reload" onClick={onReload}>
          重新加载
        </Button>,
        <Button key="overwrite" danger type="primary" onClick={onOverwrite}>
          覆盖保存
        </Button>,
      ]}
    >
      {children}
    </Modal>
  );
}
