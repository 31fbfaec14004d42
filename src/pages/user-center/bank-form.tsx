import { Empty, Form, Input, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { companyBank } from '../../contract/company-bank';
import { api } from '../../request';
import { useReportedCall } from '../use-reported-call';
import { check, TabForm } from './tab-form';

/** GET /api/companyBank/info: the settlement account of the user's company. */
export interface BankInfo {
  companyId: number;
  bankName: string | null;
  accountName: string | null;
  accountNo: string | null;
  updateTime: string | null;
}

interface BankValues {
  bankName: string;
  accountName: string;
  accountNo: string;
}

/** Bank account numbers: 8 to 30 digits; spaces between groups are allowed while typing. */
export function accountNoError(v: string | undefined): string | null {
  const digits = (v ?? '').replace(/\s+/g, '');
  if (!digits) return '请输入银行账号';
  return /^\d{8,30}$/.test(digits) ? null : '银行账号格式不正确';
}

const required = (message: string) => ({ required: true, whitespace: true, message });

/**
 * Tab 银行信息: the company's 开户银行, 账户名称 and 银行账号, saved through PUT /api/companyBank. A user
 * without a company has none to keep and is told so.
 */
export function BankForm() {
  const [form] = Form.useForm<BankValues>();
  const [info, setInfo] = useState<BankInfo | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [saving, report] = useReportedCall();

  const load = useCallback(async () => {
    try {
      const r = await api(companyBank.calls.info, {}, { silent: true });
      setInfo(r);
      setFailed(null);
      form.setFieldsValue({ bankName: r.bankName ?? '', accountName: r.accountName ?? '', accountNo: r.accountNo ?? '' });
    } catch (e) {
      setFailed(e instanceof Error && e.message ? e.message : '银行信息加载失败');
    }
  }, [form]);

  useEffect(() => {
    void load();
  }, [load]);

  if (failed) return <Empty description={failed} />;
  if (!info) return <Spin style={{ display: 'block', margin: '24px auto' }} />;

  const submit = (v: BankValues) =>
    report(
      () =>
        api(companyBank.calls.save, {
          body: {
            bankName: v.bankName.trim(),
            accountName: v.accountName.trim(),
            accountNo: v.accountNo.replace(/\s+/g, ''),
          },
        }),
      {
        done: '保存成功',
        answered: () => void load(),
        refused: (text) => {
          const name = text.includes('开户银行')
            ? 'bankName'
            : text.includes('账户名称')
              ? 'accountName'
              : text.includes('账号')
                ? 'accountNo'
                : null;
          if (name) form.setFields([{ name, errors: [text] }]);
        },
      },
    );

  return (
    <TabForm<BankValues>
      form={form}
      name="company-bank"
      onSubmit={(v) => void submit(v)}
      saving={saving}
      save="保存"
      after={
        info.updateTime && (
          <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
            更新于 {info.updateTime}
          </Typography.Text>
        )
      }
    >
      <Form.Item label="开户银行" name="bankName" rules={[required('请输入开户银行')]}>
        <Input placeholder="请输入开户银行" maxLength={100} />
      </Form.Item>
      <Form.Item label="账户名称" name="accountName" rules={[required('请输入账户名称')]}>
        <Input placeholder="请输入账户名称" maxLength={100} />
      </Form.Item>
      <Form.Item label="银行账号" name="accountNo" required rules={[check(accountNoError)]}>
        <Input placeholder="请输入银行账号" maxLength={40} inputMode="numeric" />
      </Form.Item>
    </TabForm>
  );
}
