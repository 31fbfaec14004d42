import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Upload } from 'antd';
import { useState } from 'react';
import { type ImportResult, useEngineServices, type ViewResource } from '../services';
import { importSummary, importToast, MESSAGES } from './rules';

/** The import takes spreadsheets only. */
export const IMPORT_EXTENSIONS = ['xls', 'xlsx'];

export function isImportFile(name: string): boolean {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return name.includes('.') && IMPORT_EXTENSIONS.includes(ext);
}

/**
 * Import: an xls or xlsx file sent to the view's import; the server answers a spreadsheet with a
 * verdict per row, offered for download. Template download beside it.
 */
export function ImportDialog({
  resource,
  template,
  title,
  onClose,
  onImported,
}: {
  resource: ViewResource;
  /** Offered when the page has template download. */
  template?: boolean;
  title: string;
  onClose: () => void;
  onImported: () => void;
}) {
  const { data, download, saveFile, notify } = useEngineServices();
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);

  const send = async (file: File) => {
    setUploading(true);
    setResult(null);
    try {
      const answer = await data.import({ resource, file });
      setResult(answer);
      // The toast and the dialog tell the same counts.
      if (importSummary(answer).ok) notify.success(importToast(answer));
      else notify.warning(importToast(answer));
      onImported();
    } catch {
      // Reported by the data provider.
    } finally {
      setUploading(false);
    }
  };

  const summary = result ? importSummary(result) : undefined;
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
        {template && (
          <Button
            type="link"
            onClick={() => void download(resource.api.template, undefined, `${title}导入模板.xlsx`)}
            style={{ padding: 0 }}
          >
            下载导入模板
          </Button>
        )}
        {summary && result && (
          <Alert
            type={summary.ok ? 'success' : 'warning'}
            showIcon
            title={summary.title}
            description={summary.counts}
            action={
              <Button size="small" onClick={() => saveFile(result.file, result.fileName ?? `${title}导入结果.xlsx`)}>
                下载导入结果
              </Button>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
