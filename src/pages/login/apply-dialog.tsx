import { ReloadOutlined } from '@ant-design/icons';
import { Button, Cascader, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { companyApplications } from '../../contract/company-application';
import { dict } from '../../contract/dict';
import { regions } from '../../contract/regions';
import { notify } from '../../notify/notifier';
import { api, useLookup } from '../../request';
import { dialogFormLayout } from '../../shared/form-layout';
import { requiredText } from '../text-rules';
import { CaptchaImage, useCaptcha } from './captcha';
import { APPLY_PHONE, type ApplyValues, applyPayload, type RegionOption } from './login-helpers';
import { TermsDialog } from './terms-dialog';

export const APPLY_SUCCESS = '申请已经提交，请耐心等待';

interface Option {
  value: string;
  label: string;
}

const loadCompanyTypes = async (signal: AbortSignal): Promise<Option[]> => {
  const page = await api(dict.calls.publicEntries, { query: { dictName: 'companyType', page: 0, size: 9999 } }, { silent: true, signal });
  return (page?.content ?? []).map((d) => ({ value: d.value, label: d.label }));
};

// Asked before anyone is signed in: a 401 here means the server keeps the tree behind a session,
// which is not a reason to offer "re-login" on the login page; the field shows the failure.
const loadRegions = async (signal: AbortSignal): Promise<RegionOption[]> => {
  const tree: RegionOption[] = await api(regions.calls.tree, {}, { silent: true, skipAuthHandlers: true, signal });
  return Array.isArray(tree) ? tree : [];
};

function LoadFailed({ what, retry }: { what: string; retry: () => void }) {
  return (
    <Flex vertical align="center" gap={4} style={{ padding: 8 }}>
      <Typography.Text type="danger">{what}加载失败</Typography.Text>
      <Button size="small" icon={<ReloadOutlined />} onClick={retry}>
        重试
      </Button>
    </Flex>
  );
}

export interface ApplyDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Apply to join. What was typed survives closing and reopening the dialog
 * (only a successful application clears it); the captcha is renewed on every opening.
 */
export function ApplyDialog({ open, onClose }: ApplyDialogProps) {
  const [form] = Form.useForm<ApplyValues>();
  // Loaded on every opening (below), not on mount as well.
  const captcha = useCaptcha(false);
  const [submitting, setSubmitting] = useState(false);
  const [termsOpen, setTermsOpen] = useState(false);
  // The look-ups load when the dialog first opens, not again on every opening; a failed one offers 重试.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const types = useLookup(opened ? 'companyTypes' : null, loadCompanyTypes);
  const regions = useLookup(opened ? 'regions' : null, loadRegions);
  const { refresh: refreshCaptcha } = captcha;

  useEffect(() => {
    if (open) {
      form.setFieldValue('code', '');
      void refreshCaptcha();
    }
  }, [open, form, refreshCaptcha]);

  const typeOptions = types.data ?? [];
  const regionTree = regions.data ?? [];

  const onFinish = async (values: ApplyValues) => {
    if (!captcha.captcha) {
      await captcha.refresh();
      return;
    }
    setSubmitting(true);
    try {
      await api(companyApplications.calls.apply, { body: applyPayload(values, typeOptions, regionTree, captcha.captcha.uuid) });
      notify.success(APPLY_SUCCESS);
      form.resetFields();
      onClose();
      return;
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setSubmitting(false);
    }
    // A captcha is good for one attempt.
    form.setFieldValue('code', '');
    void captcha.refresh();
  };

  return (
    <Modal
      title="申请入驻"
      open={open}
      onCancel={onClose}
      width={560}
      mask={{ closable: false }}
      forceRender
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="submit" type="primary" loading={submitting} onClick={() => form.submit()}>
          提交申请
        </Button>,
      ]}
    >
      <Form<ApplyValues> form={form} name="apply" {...dialogFormLayout(96)} onFinish={onFinish}>
        <Form.Item label="企业名称" name="name" rules={requiredText('企业名称不能为空', 255, '企业名称不能超过255个字符')}>
          <Input placeholder="请输入企业名称（与营业执照一致）" maxLength={255} />
        </Form.Item>
        <Form.Item label="企业类型" name="type" rules={[{ required: true, message: '请选择企业类型' }]}>
          <Select
            placeholder="请选择企业类型"
            options={typeOptions}
            loading={types.loading}
            showSearch={{ optionFilterProp: 'label' }}
            notFoundContent={types.error && !types.loading ? <LoadFailed what="企业类型" retry={types.reload} /> : undefined}
          />
        </Form.Item>
        <Form.Item label="企业地址" name="region" rules={[{ required: true, type: 'array', min: 1, message: '请选择企业地址' }]}>
          <Cascader
            placeholder="请选择省 / 市 / 区县"
            options={regionTree}
            showSearch
            loading={regions.loading}
            notFoundContent={regions.error && !regions.loading ? <LoadFailed what="地区" retry={regions.reload} /> : undefined}
          />
        </Form.Item>
        <Form.Item label="申请人" name="applicant" rules={requiredText('请输入申请人姓名', 100, '申请人姓名不能超过100个字符')}>
          <Input placeholder="请输入申请人姓名" maxLength={100} />
        </Form.Item>
        <Form.Item
          label="手机号"
          name="phone"
          rules={[
            { required: true, message: '请输入手机号' },
            { pattern: APPLY_PHONE, message: '手机号格式错误' },
          ]}
        >
          <Input placeholder="请输入手机号" maxLength={11} inputMode="numeric" />
        </Form.Item>
        <Form.Item label="验证码" required style={{ marginBottom: 12 }}>
          <Flex gap={8} align="flex-start">
            <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
              <Input placeholder="请输入验证码" autoComplete="off" style={{ flex: 1 }} />
            </Form.Item>
            <CaptchaImage state={captcha} height={32} />
          </Flex>
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 12 }}>
          提交申请即表示您已阅读并同意
          <Button type="link" size="small" onClick={() => setTermsOpen(true)} style={{ padding: 0, height: 'auto', fontSize: 12 }}>
            《入驻协议》和《授权协议》
          </Button>
        </Typography.Paragraph>
      </Form>
      <TermsDialog open={termsOpen} onClose={() => setTermsOpen(false)} />
    </Modal>
  );
}
