import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Modal, Upload, type UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { files } from '../../contract/files';
import { type DataProvider, useEngineServices } from '../services';
import { compressImage } from './compress';
import type { ControlProps } from './field-controls';
import { filesText, isAccepted, parseFiles, type StoredFile, TOO_MANY_FILES_MESSAGE, uploadTypeMessage } from './labels';

/**
 * File and image fields: files.upload (multipart, with the
 * field's name as columnName); the whitelist of the model with the 允许上传 message; more files than
 * maxCount warns 文件数量超过限定个数; removal asks first; images over 1 MB are compressed first.
 * The value is the JSON list text of the upload answers.
 */

export const UPLOAD_URL = files.calls.upload.path;
const PREVIEW_URL = files.calls.preview.path;
const DOWNLOAD_URL = files.calls.download.path;

interface UploadAnswer {
  filePath: string;
  fileName: string;
  columnName?: string;
}

/** Previews need the session headers, so images are fetched once and shown from object URLs. */
const previews = new Map<string, Promise<string | undefined>>();

function previewUrl(data: Pick<DataProvider, 'custom'>, filePath: string): Promise<string | undefined> {
  let p = previews.get(filePath);
  if (!p) {
    p = data
      .custom<Blob>({ url: PREVIEW_URL, query: { source: filePath }, responseType: 'blob', silent: true })
      .then((blob) => URL.createObjectURL(blob))
      .catch(() => {
        previews.delete(filePath);
        return undefined;
      });
    previews.set(filePath, p);
  }
  return p;
}

function usePreviewUrls(files: readonly StoredFile[], enabled: boolean): Record<string, string> {
  const { data } = useEngineServices();
  const [urls, setUrls] = useState<Record<string, string>>({});
  const paths = files.map((f) => f.filePath).join('\n');
  useEffect(() => {
    if (!enabled || !paths) return;
    let live = true;
    for (const path of paths.split('\n')) {
      void previewUrl(data, path).then((url) => {
        if (live && url) setUrls((u) => (u[path] === url ? u : { ...u, [path]: url }));
      });
    }
    return () => {
      live = false;
    };
  }, [data, paths, enabled]);
  return urls;
}

export function UploadField({ field, id, value, onChange, onBlur, readOnly, disabled }: ControlProps) {
  const { data, download, notify } = useEngineServices();
  const rules = field.upload ?? { image: field.kind === 'image', accept: [], maxCount: 1 };
  const files = parseFiles(value);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [preview, setPreview] = useState<{ url: string; name: string } | null>(null);
  const urls = usePreviewUrls(files, rules.image);
  // Several uploads may finish in any order; each adds to the latest list, not the one it started with.
  const latest = useRef(files);
  latest.current = files;
  const counted = useRef(0);
  const warned = useRef(new WeakSet<object>());
  const editable = !readOnly && !disabled;

  const commit = (next: StoredFile[]) => {
    latest.current = next;
    onChange(filesText(next));
    onBlur();
  };

  async function send(file: File, uid: string) {
    setPending((p) => [...p, { uid, name: file.name, status: 'uploading' }]);
    try {
      const body = new FormData();
      body.append('file', await compressImage(file), file.name);
      body.append('columnName', field.name);
      const answer = await data.custom<UploadAnswer>({ url: UPLOAD_URL, method: 'post', multipart: body });
      const stored: StoredFile = { fileName: answer.fileName, filePath: answer.filePath };
      if (answer.columnName) stored.columnName = answer.columnName;
      commit([...latest.current, stored]);
    } catch {
      // The data provider has shown the server's message.
    } finally {
      counted.current--;
      setPending((p) => p.filter((x) => x.uid !== uid));
    }
  }

  const beforeUpload = (file: File & { uid: string }, batch: File[]) => {
    if (!isAccepted(file.name, rules.accept)) {
      notify.error(uploadTypeMessage(rules.accept));
      return Upload.LIST_IGNORE;
    }
    if (latest.current.length + counted.current + 1 > rules.maxCount) {
      if (!warned.current.has(batch)) {
        warned.current.add(batch);
        notify.warning(TOO_MANY_FILES_MESSAGE);
      }
      return Upload.LIST_IGNORE;
    }
    counted.current++;
    void send(file, file.uid);
    return Upload.LIST_IGNORE;
  };

  const onRemove = async (item: UploadFile) => {
    if (!editable) return false;
    const ok = await notify.confirm({ title: '提示', content: `确定移除 ${item.name}？`, okText: '确定', cancelText: '取消' });
    if (ok) commit(latest.current.filter((f) => f.filePath !== item.uid));
    return false;
  };

  const onPreview = (item: UploadFile) => {
    const stored = files.find((f) => f.filePath === item.uid);
    if (!stored) return;
    const url = urls[stored.filePath];
    if (rules.image && url) setPreview({ url, name: stored.fileName });
    else void download(DOWNLOAD_URL, { source: stored.filePath, fileName: stored.fileName }, stored.fileName);
  };

  const fileList: UploadFile[] = [
    ...files.map(
      (f): UploadFile => ({
        uid: f.filePath,
        name: f.fileName,
        status: 'done',
        url: rules.image ? urls[f.filePath] : undefined,
        thumbUrl: rules.image ? urls[f.filePath] : undefined,
      }),
    ),
    ...pending,
  ];

  return (
    <div id={id} data-upload={field.name}>
      <Upload
        accept={rules.accept.map((t) => `.${t}`).join(',')}
        multiple={rules.maxCount > 1}
        listType={rules.image ? 'picture-card' : 'text'}
        fileList={fileList}
        beforeUpload={beforeUpload}
        onRemove={onRemove}
        onPreview={onPreview}
        disabled={!editable}
        showUploadList={{ showRemoveIcon: editable, showPreviewIcon: true }}
      >
        {!editable ? null : rules.image ? (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传</div>
          </button>
        ) : (
          <Button icon={<UploadOutlined />}>点击上传</Button>
        )}
      </Upload>
      {!editable && files.length === 0 ? <span>—</span> : null}
      <Modal open={!!preview} title={preview?.name} footer={null} onCancel={() => setPreview(null)} destroyOnHidden>
        {preview ? <img src={preview.url} alt={preview.name} style={{ width: '100%' }} /> : null}
      </Modal>
    </div>
  );
}
