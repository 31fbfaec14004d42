import { Button, Modal, Progress, Typography } from 'antd';
import { useSyncExternalStore } from 'react';
import { downloadProgress } from '../request';
import { formatBytes } from '../shared/format';

/** How far a download is, in whole percent; null when the server did not say how big the file is. */
export function downloadPercent(loaded: number, total: number | null): number | null {
  if (total === null) return null;
  if (total === 0) return 100;
  return Math.min(100, Math.floor((loaded / total) * 100));
}

/**
 * 文件下载: while a file downloads, its name, how much of it has arrived (of how much, when the server
 * says) as a bar and in bytes, and 取消, which stops the download without saving anything.
 */
export function DownloadProgressDialog() {
  const p = useSyncExternalStore(downloadProgress.subscribe, downloadProgress.get, () => null);
  const percent = p ? downloadPercent(p.loaded, p.total) : null;
  return (
    <Modal
      open={p !== null}
      title="文件下载"
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={420}
      footer={
        <Button onClick={() => p?.cancel()} data-testid="download-cancel">
          取消下载
        </Button>
      }
    >
      {p && (
        <div data-testid="download-progress">
          <Typography.Paragraph ellipsis={{ tooltip: p.fileName }} style={{ marginBottom: 8 }}>
            正在下载：{p.fileName}
          </Typography.Paragraph>
          <Progress percent={percent ?? 0} status="active" showInfo={percent !== null} />
          <Typography.Text type="secondary">
            {p.total === null ? `已下载 ${formatBytes(p.loaded)}` : `已下载 ${formatBytes(p.loaded)} / ${formatBytes(p.total)}`}
          </Typography.Text>
        </div>
      )}
    </Modal>
  );
}
