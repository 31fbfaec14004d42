import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import DOMPurify from 'dompurify';
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * The rich-text field (configure.editor): a small contenteditable editor, loaded only by forms that
 * have one. Its HTML is sanitised on the way in (what the record holds) and on the way out (what the
 * user typed or pasted), so no script or event handler ever reaches the page or the server.
 */

export const sanitizeHtml = (html: string) => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });

/** An editor holding nothing visible is empty (null), so that `required` can tell. */
function editorValue(html: string): string | null {
  const clean = sanitizeHtml(html);
  const text = clean
    .replace(/<br\s*\/?>/gi, '')
    .replace(/<(p|div)>\s*<\/\1>/gi, '')
    .trim();
  return text === '' ? null : clean;
}

interface Props {
  id: string;
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

export default function RichTextEditor({ id, label, value, onChange, onBlur, readOnly }: Props) {
  const { token } = theme.useToken();
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
