import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Col, Descriptions, Result, Row, Spin, Tabs, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useAvatarUrl, userProfileStore } from '../../navigation/user-profile';
import { notify } from '../../notify/notifier';
import { PasswordDialog } from '../../session/password-dialog';
import { BankForm } from './bank-form';
import { CityCarousel } from './city-carousel';
import { EmailDialog } from './email-dialog';
import { LogTable } from './log-table';
import { ProfileForm } from './profile-form';
import { isAvatarFile, MESSAGES } from './rules';
import { type CenterUser, fetchCenterUser, messageOf, uploadAvatar } from './user-center-api';
import { VisitCards } from './visit-cards';

function AvatarUpload({ user, onChanged }: { user: CenterUser; onChanged: () => void }) {
  const src = useAvatarUrl(user.avatar);
  const [uploading, setUploading] = useState(false);
  return (
    <Upload
      accept=".jpg,.jpeg,.png,image/jpeg,image/png"
      showUploadList={false}
      beforeUpload={(file) => {
        if (isAvatarFile(file.name, file.type)) return true;
        notify.error(MESSAGES.avatarType);
        return Upload.LIST_IGNORE;
      }}
      customRequest={({ file }) => {
        setUploading(true);
        uploadAvatar(file as File)
          .then((r) => {
            notify.success(r.message || MESSAGES.avatarDone);
            onChanged();
          })
          .catch((e) => notify.error(messageOf(e)))
          .finally(() => setUploading(false));
      }}
    >
      <button
        type="button"
        className="wg-avatar-upload"
        aria-label="上传头像"
        title="点击上传头像"
        style={{ position: 'relative', border: 0, background: 'none', cursor: 'pointer', padding: 0 }}
      >
        <Spin spinning={uploading}>
          <Avatar size={100} src={src} icon={<UserOutlined />} alt="头像" />
        </Spin>
        <CameraOutlined
          style={{
            position: 'absolute',
            right: 4,
            bottom: 4,
            fontSize: 18,
            color: '#2F6EFF',
            background: '#fff',
            borderRadius: '50%',
            padding: 3,
          }}
        />
      </button>
    </Upload>
  );
}

/** 个人中心: the info card with the avatar, the profile and log tabs, password and e-mail, cities and visits. */
export function UserCenterPage() {
  const [user, setUser] = useState<CenterUser | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [emailOpen, setEmailOpen] = useState(false);

  const load = useCallback(async () => {
    try {
      const u = await fetchCenterUser();
      setUser(u);
      setFailed(null);
      userProfileStore.set({ userId: u.id, nickName: u.nickName, avatar: u.avatar });
    } catch (e) {
      setFailed(messageOf(e, '用户信息加载失败'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  if (!user) {
    if (failed) {
      return (
        <Result
          status="warning"
          title={failed}
          extra={
            <Button type="primary" onClick={() => void load()}>
              重试
            </Button>
          }
        />
      );
    }
    return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  }

  const reload = () => void load();
  return (
    <div className="wg-user-center" style={{ padding: 16 }}>
      {passwordOpen && <PasswordDialog open onClose={() => setPasswordOpen(false)} initialPhone={user.phone ?? ''} />}
      <EmailDialog open={emailOpen} currentEmail={user.email} onClose={() => setEmailOpen(false)} onChanged={reload} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card title="个人信息" size="small" data-testid="user-info">
            <div style={{ textAlign: 'center', marginBottom: 16 }}>
              <AvatarUpload user={user} onChanged={reload} />
            </div>
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'username', label: '登录账号', children: user.username },
                { key: 'nickName', label: '用户昵称', children: user.nickName },
                { key: 'phone', label: '手机号码', children: user.phone || '—' },
                { key: 'email', label: '用户邮箱', children: user.email || '—' },
                { key: 'dept', label: '所属部门', children: [user.dept?.name, user.job].filter(Boolean).join(' / ') || '—' },
                { key: 'createTime', label: '创建日期', children: user.createTime || '—' },
                {
                  key: 'security',
                  label: '安全设置',
                  children: (
                    <span>
                      <Button type="link" size="small" onClick={() => setPasswordOpen(true)}>
                        修改密码
                      </Button>
                      <Button type="link" size="small" onClick={() => setEmailOpen(true)}>
                        修改邮箱
                      </Button>
                    </span>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={16}>
          <Card size="small">
            <Tabs
              items={[
                { key: 'first', label: '用户资料', children: <ProfileForm user={user} onSaved={reload} /> },
                { key: 'second', label: '操作日志', children: <LogTable />, destroyOnHidden: true },
                { key: 'bank', label: '银行信息', children: <BankForm />, destroyOnHidden: true },
              ]}
            />
          </Card>
        </Col>
        <Col span={24}>
          <CityCarousel />
        </Col>
        <Col span={24}>
          <VisitCards />
        </Col>
      </Row>
    </div>
  );
}
