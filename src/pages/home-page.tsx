import { BellOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Col, Descriptions, Empty, Flex, Row, Statistic, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUnreadCounts } from '../messages/unread-store';
import { MenuIcon } from '../navigation/menu-icons';
import { useSession } from '../session/session-store';
import { APP_PATHS } from '../shared/app-paths';
import { isSupervisorDept, showsMessageBadge } from '../shared/departments';
import { sidebarItems, visiblePages } from '../shell/sidebar-items';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 11) return '上午好';
  if (hour < 13) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

interface Section {
  title: string;
  pages: { path: string; title: string; icon: string | null }[];
}

/**
 * /abandonhome (首页, pinned, not cached): who is signed in, the unread system messages, and a
 * shortcut to every page of the user's menu, grouped by section. The dashboards come later.
 */
export function HomePage() {
  const { info, menus } = useSession();
  const unread = useUnreadCounts();
  const navigate = useNavigate();
  const sections = useMemo<Section[]>(() => {
    const out: Section[] = [];
    for (const p of visiblePages(sidebarItems(menus))) {
      const title = p.trail.length > 1 ? (p.trail[0] as string) : '常用';
      let section = out.find((s) => s.title === title);
      if (!section) {
        section = { title, pages: [] };
        out.push(section);
      }
      section.pages.push(p);
    }
    // Top-level pages first.
    return out.sort((a, b) => Number(b.title === '常用') - Number(a.title === '常用'));
  }, [menus]);

  if (!info) return null;
  const { user, company } = info;
  const job = (user as { job?: string | null }).job;
  const name = user.nickName || user.username;
  const now = dayjs();
  const showUnread = showsMessageBadge(user.deptId);

  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={showUnread ? 16 : 24}>
          <Card style={{ height: '100%' }}>
            <Flex gap={20} align="center" wrap>
              <Avatar size={64} style={{ background: 'var(--wg-primary)', fontSize: 28, flex: 'none' }}>
                {name.slice(0, 1)}
              </Avatar>
              <Flex vertical gap={4} style={{ minWidth: 0 }}>
                <Typography.Title level={3} style={{ margin: 0 }}>
                  欢迎，{name}
                </Typography.Title>
                <Typography.Text type="secondary">
                  {greeting(now.hour())}！今天是 {now.format('YYYY年M月D日 dddd')}
                </Typography.Text>
                <Flex gap={4} wrap>
                  {user.isAdmin && <Tag color="gold">系统管理员</Tag>}
                  {job && !(user.isAdmin && job === '系统管理员') && <Tag color="blue">{job}</Tag>}
                  {isSupervisorDept(user.deptCode) && <Tag color="green">监管用户</Tag>}
                </Flex>
              </Flex>
            </Flex>
            <Descriptions
              column={{ xs: 1, sm: 1, md: 3 }}
              size="small"
              style={{ marginTop: 20 }}
              items={[
                { key: 'username', label: '用户名', children: user.username },
                { key: 'company', label: '所属企业', children: company?.name ?? '—' },
                {
                  key: 'dept',
                  label: '所属部门',
                  children: user.dept?.name ? (job ? `${user.dept.name}（${job}）` : user.dept.name) : '—',
                },
              ]}
            />
          </Card>
        </Col>
        {showUnread && (
          <Col xs={24} lg={8}>
            <Card style={{ height: '100%' }}>
              <Statistic title="未读系统消息" value={unread.sys} suffix="条" prefix={<BellOutlined />} />
              <div>
                <Typography.Text type="secondary">未读留言 {unread.leave} 条</Typography.Text>
              </div>
              <Button type="primary" style={{ marginTop: 16 }} onClick={() => navigate(APP_PATHS.systemMessages)}>
                查看系统消息
              </Button>
            </Card>
          </Col>
        )}
      </Row>
      <Card title="快捷入口">
        {sections.length === 0 ? (
          <Empty description="暂无可用的菜单，请联系管理员分配权限" />
        ) : (
          <Flex vertical gap={16}>
            {sections.map((s) => (
              <section key={s.title} aria-label={s.title}>
                <Typography.Text type="secondary" strong>
                  {s.title}
                </Typography.Text>
                <Flex wrap gap={8} style={{ marginTop: 8 }}>
                  {s.pages.map((p) => (
                    <Button
                      key={p.path}
                      icon={<MenuIcon name={p.icon} />}
                      href={p.path}
                      onClick={(e) => {
                        if (/^https?:\/\//.test(p.path)) return;
                        e.preventDefault();
                        navigate(p.path);
                      }}
                    >
                      {p.title}
                    </Button>
                  ))}
                </Flex>
              </section>
            ))}
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
