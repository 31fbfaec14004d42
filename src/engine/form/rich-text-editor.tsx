import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  PictureOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { urlOf } from '../../contract/define';
import { files } from '../../contract/files';
import { OPEN_UPLOAD_PERMISSIONS } from '../../shared/open-files';
import { SAFE_HTML_CLASS, safeHtml } from '../safe-html';
import { useEngineServices } from '../services';
import { compressImage } from './compress';
import { isAccepted, uploadTypeMessage } from './labels';

/**
 * The rich-text field (configure.editor): a small contenteditable editor, loaded only by forms that
 * have one. Its HTML is sanitised on the way in (what the record holds) and on the way out (what the
 * user typed or pasted), so no script or event handler ever reaches the page or the server.
 */

export const sanitizeHtml = safeHtml;

/** An editor holding nothing visible is empty (null), so that `required` can tell. */
function editorValue(html: string): string | null {
  const clean = sanitizeHtml(html);
  const text = clean
    .replace(/<br\s*\/?>/gi, '')
    .replace(/<(p|div)>\s*<\/\1>/gi, '')
    .trim();
  return text === '' ? null : clean;
}

/** The editor's pictures go through the app's upload call, like a file field's. */
export const EDITOR_UPLOAD_URL = files.calls.upload.path;
/** Picture types the editor takes. */
export const EDITOR_IMAGE_TYPES = ['jpg', 'jpeg', 'png'] as const;

/** Where an uploaded picture is shown from: the open image address, so the stored HTML carries no token. */
export const editorImageUrl = (filePath: string) => urlOf(files.calls.openImage, { query: { source: filePath } });

/** The HTML a picture is inserted as: its address and its file name as the alternative text. */
export function editorImageHtml(filePath: string, fileName: string): string {
  const alt = fileName.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<img src="${editorImageUrl(filePath)}" alt="${alt}">`;
}

interface Props {
  id: string;
  /** The field's name, sent with an upload as columnName. */
  name: string;
  label: string;
  value: string;
  onChange: (value: string | null) => void;
  onBlur: () => void;
  readOnly: boolean;
}

const TOOLS: { command: string; title: string; icon: ReactNode }[] = [
  { command: 'bold', title: '加粗', icon: <BoldOutlined /> },
  { command: 'italic', title: '斜体', icon: <ItalicOutlined /> },
  { command: 'underline', title: '下划线', icon: <UnderlineOutlined /> },
  { command: 'strikeThrough', title: '删除线', icon: <StrikethroughOutlined /> },
  { command: 'insertUnorderedList', title: '无序列表', icon: <UnorderedListOutlined /> },
  { command: 'insertOrderedList', title: '有序列表', icon: <OrderedListOutlined /> },
  { command: 'removeFormat', title: '清除格式', icon: <ClearOutlined /> },
];

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');

export default function RichTextEditor({ id, name, label, value, onChange, onBlur, readOnly }: Props) {
  const { token } = theme.useToken();
  const { data, notify, can } = useEngineServices();
  // Pictures are open files (shown without a session): offered only to those who may publish them.
  const pictures = can(OPEN_UPLOAD_PERMISSIONS);
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  /** Where the caret was when the picture was asked for: the picture goes there. */
  const caret = useRef<Range | null>(null);
  const box = useRef<HTMLDivElement>(null);
  /** The HTML last written to or read from the box: a value equal to it needs no rewrite (the caret stays). */
  const shown = useRef<string | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const clean = sanitizeHtml(value ?? '');
    if (clean !== shown.current) {
      el.innerHTML = clean;
      shown.current = clean;
    }
    // What the record held is kept only as sanitised, so that a submit never sends it back as it came.
    if (value && clean !== value) onChange(editorValue(clean));
  }, [value, onChange]);

  const emit = () => {
    const el = box.current;
    if (!el) return;
    const next = editorValue(el.innerHTML);
    shown.current = next ?? '';
    onChange(next);
  };

  const run = (command: string) => {
    box.current?.focus();
    document.execCommand(command, false);
    emit();
  };

  const askPicture = () => {
    const sel = document.getSelection();
    const el = box.current;
    caret.current = sel?.rangeCount && el?.contains(sel.getRangeAt(0).commonAncestorContainer) ? sel.getRangeAt(0).cloneRange() : null;
    picker.current?.click();
  };

  const insertPicture = async (file: File) => {
    if (!isAccepted(file.name, EDITOR_IMAGE_TYPES)) {
      notify.error(uploadTypeMessage(EDITOR_IMAGE_TYPES));
      return;
    }
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', await compressImage(file), file.name);
      body.append('columnName', name);
      // Shown in the saved HTML without a token.
      body.append('open', '1');
      const answer = await data.custom<{ filePath: string; fileName: string }>({ url: EDITOR_UPLOAD_URL, method: 'post', multipart: body });
      const el = box.current;
      if (!el) return;
      el.focus();
      const sel = document.getSelection();
      if (sel) {
        sel.removeAllRanges();
        const range = caret.current ?? document.createRange();
        if (!caret.current) {
          range.selectNodeContents(el);
          range.collapse(false);
        }
        sel.addRange(range);
      }
      document.execCommand('insertHTML', false, sanitizeHtml(editorImageHtml(answer.filePath, answer.fileName || file.name)));
      emit();
    } catch {
      // The data provider has shown the server's message.
    } finally {
      setUploading(false);
    }
  };

  return (
    <div style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, width: '100%' }}>
      {readOnly ? null : (
        <div
          role="toolbar"
          aria-label={`${label}格式`}
          style={{ display: 'flex', flexWrap: 'wrap', gap: 2, padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
          {TOOLS.map((t) => (
            <Tooltip key={t.command} title={t.title}>
              <Button
                size="small"
                type="text"
                icon={t.icon}
                aria-label={t.title}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => run(t.command)}
              />
            </Tooltip>
          ))}
          {pictures && (
            <Tooltip title="插入图片">
              <Button
                size="small"
                type="text"
                icon={<PictureOutlined />}
                aria-label="插入图片"
                loading={uploading}
                onMouseDown={(e) => e.preventDefault()}
                onClick={askPicture}
              />
            </Tooltip>
          )}
          <input
            ref={picker}
            type="file"
            hidden
            accept={EDITOR_IMAGE_TYPES.map((t) => `.${t}`).join(',')}
            aria-label={`${label}图片`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void insertPicture(file);
            }}
          />
        </div>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text box is a contenteditable div with the textbox role */}
      <div
        id={id}
        ref={box}
        role="textbox"
        tabIndex={0}
        aria-multiline="true"
        aria-label={label}
        aria-readonly={readOnly}
        contentEditable={!readOnly}
        className={SAFE_HTML_CLASS}
        suppressContentEditableWarning
        onInput={emit}
        onBlur={onBlur}
        onPaste={(e) => {
          e.preventDefault();
          const html = e.clipboardData.getData('text/html');
          const text = e.clipboardData.getData('text/plain');
          document.execCommand('insertHTML', false, sanitizeHtml(html || escapeText(text)));
          emit();
        }}
        style={{ minHeight: 160, padding: '6px 11px', outline: 'none', overflowY: 'auto', maxHeight: 480 }}
      />
    </div>
  );
}
