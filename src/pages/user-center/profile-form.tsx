import { Form, Input, Radio } from 'antd';
import { useEffect } from 'react';
import { SEX_OPTIONS } from '../../shared/person-rule';
import { useReportedCall } from '../use-reported-call';
import { MESSAGES, nickNameError, phoneError } from './rules';
import { check, TabForm } from './tab-form';
import { type CenterUser, saveProfile } from './user-center-api';

interface ProfileValues {
  nickName: string;
  phone: string;
  sex: string | null;
}

/** Tab 用户资料: nickname, phone and sex, saved through PUT /api/users/center. */
export function ProfileForm({ user, onSaved }: { user: CenterUser; onSaved: () => void }) {
  const [form] = Form.useForm<ProfileValues>();
  const [saving, report] = useReportedCall();

  const { nickName, phone, sex } = user;
  useEffect(() => {
    // Refilled only when the stored values change (a save): another reload keeps what is being typed.
    form.setFieldsValue({ nickName, phone: phone ?? '', sex });
  }, [form, nickName, phone, sex]);

  const submit = (values: ProfileValues) =>
    report(() => saveProfile({ id: user.id, nickName: values.nickName.trim(), phone: values.phone.trim(), sex: values.sex ?? null }), {
      done: '保存成功',
      answered: onSaved,
      refused: (text) => {
        if (text.includes('手机') || text.includes('电话')) form.setFields([{ name: 'phone', errors: [text] }]);
        else if (text.includes('昵称') || text.includes('长度')) form.setFields([{ name: 'nickName', errors: [text] }]);
      },
    });

  return (
    <TabForm<ProfileValues> form={form} name="user-profile" onSubmit={(v) => void submit(v)} saving={saving} save="保存配置">
      <Form.Item label="昵称" name="nickName" required rules={[check(nickNameError)]}>
        <Input placeholder={MESSAGES.nickRequired} maxLength={40} />
      </Form.Item>
      <Form.Item label="手机号" name="phone" required rules={[check(phoneError)]}>
        <Input placeholder={MESSAGES.phoneRequired} maxLength={11} inputMode="numeric" />
      </Form.Item>
      <Form.Item label="性别" name="sex">
        <Radio.Group options={SEX_OPTIONS} />
      </Form.Item>
    </TabForm>
  );
}
