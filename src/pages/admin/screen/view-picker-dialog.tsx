import { Alert, Empty, Form, Modal, Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { generation } from '../../../contract/generation';
import { screens } from '../../../contract/screens';
import { notify } from '../../../notify/notifier';
import { api, RequestError } from '../../../request';
import { type ScreenRow, templateFor, templateViews, typeName } from './screen-types';

interface ViewOption {
  id: number;
  name: string;
  status: number;
}

/**
 * 设计 of a base, form or container screen: which views it draws. A base preview (1) shows one list
 * view, a form preview (3) one view's form, a container (4) several list views as tabs, in the order
 * picked.
 */
export function ViewPickerDialog({ screen, onClose, onSaved }: { screen: ScreenRow; onClose(): void; onSaved(): void }) {
  const [views, setViews] = useState<ViewOption[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [picked, setPicked] = useState<number[]>(() => templateViews(screen.type, screen.disTemplate));
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const many = screen.type === 4;

  useEffect(() => {
    const controller = new AbortController();
    api(generation.calls.list, { query: { page: 0, size: 9999 } }, { signal: controller.signal, silent: true })
      .then((r) => setViews(r.content))
      .catch((e) => {
        if (!controller.signal.aborted) setLoadError(e instanceof RequestError ? e.message : '视图列表加载失败');
      });
    return () => controller.abort();
  }, []);

  const save = async () => {
    if (!picked.length) {
      setSaveError(screen.type === 3 ? '请选择表单视图' : '请至少选择一个视图');
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      // The version listed: a save made by someone else since is refused (409) rather than overwritten.
      await api(
        screens.calls.design,
        { body: { id: screen.id, disTemplate: templateFor(screen.type, picked), version: screen.version } },
        { silent: true },
      );
      notify.success('保存成功');
      onSaved();
    } catch (e) {
      setSaveError(e instanceof RequestError ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };

  const initial = templateViews(screen.type, screen.disTemplate);
  const dirty = initial.join(',') !== picked.join(',');
  const close = async () => {
    if (dirty && !(await notify.confirm({ title: '提示', content: '修改尚未保存，确定关闭吗？' }))) return;
    onClose();
  };

  const label = screen.type === 3 ? '表单视图' : many ? '基础视图（按选择顺序成为标签页）' : '基础视图';
  return (
    <Modal
      open
      title={`设计：${screen.name}（${typeName(screen.type)}）`}
      okText="保存设计"
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ disabled: !views }}
      maskClosable={false}
      onOk={save}
      onCancel={close}
    >
      {loadError ? (
        <Alert type="error" showIcon message="视图列表加载失败" description={loadError} />
      ) : !views ? (
        <Spin />
      ) : !views.length ? (
        <Empty description="还没有视图，请先在视图管理中新增" />
      ) : (
        <Form layout="vertical">
          <Form.Item label={label} required>
            <Select<number | number[]>
              aria-label={label}
              mode={many ? 'multiple' : undefined}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="选择视图"
              value={many ? picked : picked[0]}
              onChange={(v) => {
                setSaveError(null);
                setPicked(v === undefined ? [] : Array.isArray(v) ? v : [v]);
              }}
              options={views.map((v) => ({ value: v.id, label: `${v.name}（${v.id}）${v.status === 1 ? '' : ' 未发布'}` }))}
            />
          </Form.Item>
          {many && picked.length > 0 && (
            <Typography.Paragraph type="secondary">
              标签页顺序：{picked.map((id) => views.find((v) => v.id === id)?.name ?? id).join(' → ')}
            </Typography.Paragraph>
          )}
        </Form>
      )}
      {saveError && <Alert type="error" showIcon message={saveError} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
