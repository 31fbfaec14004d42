import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Input, Modal, Radio, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { screenShare } from '../../../contract/screen-share';
import { DEFAULT_TIME_FORMAT } from '../../../model';
import { notify } from '../../../notify/notifier';
import { api, RequestError } from '../../../request';
import type { ScreenRow } from './screen-types';

/** Expiry choices of a share link, in seconds. */
export const SHARE_EXPIRIES = [
  { value: 3600, label: '1 小时' },
  { value: 86_400, label: '1 天' },
  { value: 604_800, label: '7 天' },
  { value: 2_592_000, label: '30 天' },
] as const;

/** Copies text; falls back to a selected textarea where the clipboard API is refused (plain http). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * 分享 of a big screen: a signed link that opens the screen without signing in until it expires.
 * 更换访问密钥 gives the screen a new access key, which revokes every link made before.
 */
export function ScreenShareDialog({ screen, onClose }: { screen: ScreenRow; onClose(): void }) {
  const [expiresIn, setExpiresIn] = useState<number>(86_400);
  const [link, setLink] = useState<{ url: string; expiresAt: number } | null>(null);
  const [busy, setBusy] = useState<'share' | 'renew' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const share = async () => {
    setBusy('share');
    setError(null);
    try {
      const answer = await api(screenShare.calls.share, { body: { id: screen.id, expiresIn } }, { silent: true });
      setLink({ url: new URL(answer.url, window.location.origin).href, expiresAt: answer.expiresAt });
    } catch (e) {
      setError(e instanceof RequestError ? e.message : '生成分享链接失败');
    } finally {
      setBusy(null);
    }
  };

  const renew = async () => {
    const ok = await notify.confirm({
      title: '更换访问密钥',
      content: '更换后，此前生成的所有分享链接立即失效。确定更换吗？',
      okText: '更换',
    });
    if (!ok) return;
    setBusy('renew');
    setError(null);
    try {
      const answer = await api(screenShare.calls.renewKey, { body: { id: screen.id } }, { silent: true });
      setLink(null);
      notify.success(answer.message || '操作成功');
    } catch (e) {
      setError(e instanceof RequestError ? e.message : '更换访问密钥失败');
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    if (!link) return;
    if (await copyText(link.url)) notify.success('链接已复制');
    else notify.warning('复制失败，请手动选择链接复制');
  };

  return (
    <Modal open title={`分享：${screen.name}`} footer={null} onCancel={onClose} width={640}>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        {screen.status !== 1 && <Alert type="warning" showIcon message="该大屏尚未启用，打开分享链接会提示未启用。" />}
        <Space wrap>
          <Typography.Text>有效期</Typography.Text>
          <Radio.Group
            aria-label="有效期"
            optionType="button"
            value={expiresIn}
            options={SHARE_EXPIRIES.map((e) => ({ value: e.value, label: e.label }))}
            onChange={(e) => setExpiresIn(e.target.value)}
          />
          <Button type="primary" loading={busy === 'share'} onClick={share}>
            生成链接
          </Button>
        </Space>
        {link && (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="分享链接">
              <Space.Compact style={{ width: '100%' }}>
                <Input readOnly value={link.url} aria-label="分享链接" data-testid="share-link" onFocus={(e) => e.target.select()} />
                <Button icon={<CopyOutlined />} onClick={copy}>
                  复制
                </Button>
              </Space.Compact>
            </Descriptions.Item>
            <Descriptions.Item label="有效期至">{dayjs(link.expiresAt).format(DEFAULT_TIME_FORMAT)}</Descriptions.Item>
          </Descriptions>
        )}
        {error && <Alert type="error" showIcon message={error} role="alert" />}
        <Alert
          type="info"
          message="任何拿到链接的人都可以在有效期内查看该大屏。如链接泄露，请更换访问密钥。"
          action={
            <Button size="small" danger loading={busy === 'renew'} onClick={renew}>
              更换访问密钥
            </Button>
          }
        />
      </Space>
    </Modal>
  );
}
