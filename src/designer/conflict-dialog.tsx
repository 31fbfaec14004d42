import { Button, Modal } from 'antd';
import type { DesignDocument } from './document';

/**
 * Asked while a save is refused because someone else saved first: 重新加载 drops the edits (and their
 * kept draft) and shows the newer save, 覆盖保存 replaces it with these edits, 取消 keeps editing.
 * `noun` names the document (视图, 大屏), `work` what it holds (定义, 设计).
 */
export function ConflictDialog({
  document,
  noun,
  work,
  onOverwrite,
}: {
  document: Pick<DesignDocument<unknown>, 'conflict' | 'dismissConflict' | 'reload'>;
  noun: string;
  work: string;
  onOverwrite(): void;
}) {
  if (!document.conflict) return null;
  return (
    <Modal
      open
      title={`${noun}已被他人修改`}
      onCancel={document.dismissConflict}
      footer={[
        <Button key="cancel" onClick={document.dismissConflict}>
          取消
        </Button>,
        <Button key="reload" onClick={() => document.reload(true)}>
          重新加载
        </Button>,
        <Button key="overwrite" danger type="primary" onClick={onOverwrite}>
          覆盖保存
        </Button>,
      ]}
    >
      在你打开之后，其他人保存了这个{noun}。重新加载会放弃你的修改并显示最新的{work}；覆盖保存会用你的{work}替换对方的修改。
    </Modal>
  );
}
