import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Upload } from 'antd';
import { useState } from 'react';
import { notify } from '../../notify/notifier';
import { download, filenameFromDisposition, http } from '../../request';
import { saveBlob } from '../../request/download';
import { MESSAGES } from './rules';

/** §5.2: the import takes spreadsheets only. */
export const IMPORT_EXTENSIONS = ['xls', 'xlsx'];

export function isImportFile(name: string): boolean {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return name.includes('.') && IMPORT_EXTENSIONS.includes(ext);
}

interface ImportResult {
  blob: Blob;
  fileName: string;
  succeeded?: number;
  failed?: number;
}

const countOf = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * Import (lowcode-engine.md §2.1, §5.2, §8): an xls or xlsx file posted to the import URL; the server
 * answers a spreadsheet with a verdict per row, offered for download. Template download beside it.
 */
export function ImportDialog({
  url,
  templateUrl,
  title,
  onClose,
  onImported,
}: {
  url: string;
  /** Offered when the page has template download. */
  templateUrl?: string;
  title: string;
  onClose: () => void;
  onImported: () => void;
}) {
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);

  const send = async (file: File) => {
    setUploading(true);
    setResult(null);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const response = await http.request<Response>(url, { method: 'POST', multipart: body, responseType: 'response' });
      const blob = await response.blob();
      setResult({
        blob,
        fileName: filenameFromDisposition(response.headers.get('content-disposition')) ?? `${title}导入结果.xlsx`,
        succeeded: countOf(response.headers.get('x-import-success')),
        failed: countOf(response.headers.get('x-import-failed')),
      });
      notify.success(MESSAGES.importDone);
      onImported();
    } catch {
      // Reported by the request layer.
    } finally {
      setUploading(false);
    }
  };

  return (
    <Modal open title="导入" onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} destroyOnHidden>
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Upload.Dragger
          accept=".xls,.xlsx"
          multiple={false}
          showUploadList={false}
          disabled={uploading}
          beforeUpload={(file) => {
            if (!isImportFile(file.name)) {
              notify.error(MESSAGES.importTypes);
              return Upload.LIST_IGNORE;
            }
            void send(file);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{uploading ? '正在导入…' : '将文件拖到此处，或点击上传'}</p>
          <p className="ant-upload-hint">{MESSAGES.importTypes}</p>
        </Upload.Dragger>
        {templateUrl && (
          <Button type="link" onClick={() => void download(templateUrl, undefined, `${title}导入模板.xlsx`)} style={{ padding: 0 }}>
            下载导入模板
          </Button>
        )}
        {result && (
          <Alert
            type={result.failed ? 'warning' : 'success'}
            showIcon
            title={MESSAGES.importDone}
            description={
              result.succeeded !== undefined ? `成功 ${result.succeeded} 条${result.failed ? `，失败 ${result.failed} 条` : ''}` : undefined
            }
            action={
              <Button size="small" onClick={() => saveBlob(result.blob, result.fileName)}>
                下载导入结果
              </Button>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
