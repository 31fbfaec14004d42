import { Button, Empty, Form, Input, Radio, Select, Spin, Table, Tree } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Access, usePermission } from '../../../access/access';
import { listTableProps, useFilters, useListCrud } from '../../../engine';
import { notify } from '../../../notify/notifier';
import { useLookup } from '../../../request';
import { SEX_OPTIONS } from '../../../shared/person-rule';
import { AccountFields } from './account-fields';
import { SOURCES, type UserRow, users } from './api';
import { ACTIONS_WIDTH, ENABLED_CHOICES, SYSTEM_TABLE, sysColumns, TagList } from './columns';
import { CrudFormModal } from './form-modal';
import { confirmDeleteText, emailError, MESSAGES, nickNameError, phoneError, ruleOf, SYSTEM_CRUD, usernameError } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import { useAccountChoices } from './use-account-choices';
import './system.css';

interface UserForm {
  id?: number;
  username: string;
  nickName: string;
  phone: string;
  email?: string;
  sex?: string;
  deptId?: number | null;
  job?: string;
  roleIds: number[];
  enabled: boolean;
  permission?: string | null;
  companyId?: number | null;
}

const userName = (r: UserRow) => r.username;
/** The user table's columns together (with the selection column). */
const USER_TABLE_WIDTH = 32 + 120 + 70 + 140 + 200 + 110 + 120 + 105 + ACTIONS_WIDTH;
const setUserEnabled = (r: UserRow, on: boolean) => users.setEnabled(r.id, on);

/** 用户管理: a department tree filters the table; add, edit, delete, enable/disable, reset a password. */
/** A cell of two lines: the main value, and a smaller grey one that ends in an ellipsis (its tooltip has it whole). */
function twoLines(main: ReactNode, sub: string | null | undefined) {
  return (
    <div className="sys-two-lines">
      <div>{main}</div>
      <div className="sys-sub" title={sub ?? undefined}>
        {sub}
      </div>
    </div>
  );
}

export function UserAdminPage() {
  const can = usePermission();
  const { list, crud } = useListCrud<UserRow>(SOURCES.users, undefined, SYSTEM_CRUD);
  const dialog = crud.dialog;
  const [filters, filterBy] = useFilters<{ deptId?: number; blurry?: string; enabled?: string }>(list, {});
  const deptId = filters.deptId ?? null;
  const [form] = Form.useForm<UserForm>();
  // The 所属企业 picker asks the server for companies by name while the dialog is open; the answer for an
  // older text is never offered for a newer one.
  const [companySearch, setCompanySearch] = useState('');
  const dialogOpen = dialog !== null;
  useEffect(() => {
    if (!dialogOpen) setCompanySearch('');
  }, [dialogOpen]);
  const companies = useLookup(dialogOpen ? `companies:${companySearch}` : null, async (signal) => ({
    search: companySearch,
    list: await users.companies(companySearch.trim(), signal),
  }));

  const choices = useAccountChoices();
  const { depts } = choices;
  const treeData = depts.options;
  const companyOptions = useMemo(() => {
    const current = companies.data?.search === companySearch ? companies.data.list : [];
    const found = current.map((c) => ({ value: c.id, label: c.name }));
    // The edited user's own company stays nameable whatever the search found.
    const own = dialog?.row;
    if (own?.company != null && own.companyName && !found.some((o) => o.value === own.company))
      found.unshift({ value: own.company, label: own.companyName });
    return found;
  }, [companies.data, companySearch, dialog]);

  const save = async (v: UserForm, mode: 'add' | 'edit') => {
    const body = {
      id: v.id,
      username: v.username.trim(),
      nickName: v.nickName.trim(),
      phone: v.phone.trim(),
      email: v.email?.trim() || null,
      sex: v.sex || null,
      deptId: v.deptId ?? null,
      job: v.job?.trim() || null,
      roles: (v.roleIds ?? []).map((id) => ({ id })),
      enabled: v.enabled,
      permission: v.permission || null,
      companyId: v.companyId ?? null,
    };
    await (mode === 'edit' ? users.edit(body) : users.add(body));
  };

  const reset = async (row: UserRow) => {
    const ok = await notify.confirm({
      title: MESSAGES.confirmTitle,
      content: `确定将用户“${row.username}”的密码重置为默认密码吗？用户下次登录需修改密码。`,
    });
    if (!ok) return;
    try {
      const r = await users.resetPassword([row.id]);
      notify.success(r.message);
    } catch {
      // shown by the request client
    }
  };

  return (
    <div className="sys-page sys-split" data-page="system-user">
      <aside className="sys-side" aria-label="部门">
        <div className="sys-side-title">
          部门
          {deptId !== null && (
            <Button size="small" type="link" onClick={() => filterBy({ deptId: undefined })}>
              全部
            </Button>
          )}
        </div>
        <LoadError error={depts.error} retry={depts.reload} />
        {depts.loading && !depts.data ? (
          <Spin />
        ) : treeData.length ? (
          <Tree
            treeData={treeData}
            defaultExpandAll
            blockNode
            selectedKeys={deptId === null ? [] : [deptId]}
            onSelect={(keys) => filterBy({ deptId: keys.length ? Number(keys[0]) : undefined })}
          />
        ) : (
          <Empty description="暂无部门" />
        )}
      </aside>
      <section className="sys-page">
        <SearchToolbar
          placeholder="输入名称、邮箱或手机号搜索"
          label="搜索用户"
          width={240}
          onSearch={(blurry) => filterBy({ blurry })}
          filters={
            <Select
              allowClear
              placeholder="状态"
              style={{ width: 110 }}
              value={filters.enabled}
              onChange={(enabled) => filterBy({ enabled })}
              options={[
                { value: 'true', label: '启用' },
                { value: 'false', label: '禁用' },
              ]}
              aria-label="状态"
            />
          }
          add={{ permission: 'user:add', onClick: () => crud.open({ mode: 'add' }) }}
          extra={
            <Access roles={['user:del']}>
              <Button
                danger
                disabled={!list.selected.rows.length}
                onClick={() => void crud.remove(list.selected.rows, confirmDeleteText(`选中的${list.selected.rows.length}个用户`))}
              >
                删除
              </Button>
            </Access>
          }
        />
        <LoadError error={list.error} retry={list.reload} />
        <Table<UserRow>
          {...listTableProps(list, { selectable: can('user:del') })}
          {...SYSTEM_TABLE}
          locale={{ emptyText: list.error ? '加载失败' : '暂无数据' }}
          // The user and the state first; every column wide enough for its text (a longer one ends in an
          // ellipsis with a tooltip): beside the department tree a screen narrower than that scrolls sideways.
          tableLayout="fixed"
          scroll={{ x: USER_TABLE_WIDTH }}
          columns={[
            {
              title: '用户',
              width: 120,
              render: (_, r) => twoLines(r.username, r.nickName),
            },
            sysColumns.enabled<UserRow>({
              width: 70,
              disabled: !can('user:edit'),
              name: userName,
              set: setUserEnabled,
              reload: list.reload,
            }),
            {
              title: '联系方式',
              width: 140,
              render: (_, r) => twoLines(r.phone, r.email),
            },
            { title: '所属企业', width: 200, ellipsis: true, render: (_, r) => r.companyName ?? '—' },
            { title: '部门', width: 110, ellipsis: true, render: (_, r) => r.dept?.name ?? '' },
            { title: '角色', width: 120, render: (_, r) => <TagList tags={r.roles.map((x) => ({ key: x.id, label: x.name }))} /> },
            {
              ...sysColumns.created,
              width: 105,
              render: (t: string | null) => <span title={t ?? undefined}>{t?.slice(0, 10)}</span>,
            },
            sysColumns.actions({ width: ACTIONS_WIDTH, prefix: 'user', crud }, (r, { edit, del }) => [
              edit,
              { label: '重置密码', permission: 'user:edit', onClick: () => void reset(r) },
              del(() => void crud.remove([r], confirmDeleteText(`用户“${r.username}”`))),
            ]),
          ]}
        />
      </section>
      <CrudFormModal<UserForm>
        crud={crud}
        what="用户"
        form={form}
        width={640}
        initialValues={
          dialog?.row
            ? {
                id: dialog.row.id,
                username: dialog.row.username,
                nickName: dialog.row.nickName,
                phone: dialog.row.phone ?? '',
                email: dialog.row.email ?? '',
                sex: dialog.row.sex ?? undefined,
                deptId: dialog.row.deptId,
                job: dialog.row.job ?? '',
                roleIds: dialog.row.roles.map((x) => x.id),
                enabled: dialog.row.enabled,
                permission: dialog.row.permission ?? '',
                companyId: dialog.row.company,
              }
            : { enabled: true, roleIds: [], deptId: deptId ?? undefined, permission: '', companyId: null }
        }
        save={save}
      >
        <Form.Item name="username" label="用户名" required rules={[ruleOf(usernameError)]}>
          <Input autoComplete="off" maxLength={50} />
        </Form.Item>
        <Form.Item name="nickName" label="昵称" required rules={[ruleOf(nickNameError)]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="phone" label="电话" required rules={[ruleOf(phoneError)]}>
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={[ruleOf(emailError)]}>
          <Input />
        </Form.Item>
        <Form.Item name="sex" label="性别">
          <Radio.Group options={SEX_OPTIONS} />
        </Form.Item>
        <AccountFields
          choices={choices}
          rolesPlaceholder="选择角色"
          job={
            <Form.Item name="job" label="岗位">
              <Input maxLength={255} />
            </Form.Item>
          }
          company={
            <Form.Item name="companyId" label="所属企业">
              <Select
                aria-label="所属企业"
                showSearch={{ filterOption: false, onSearch: setCompanySearch }}
                allowClear
                placeholder="输入企业名称搜索"
                loading={companies.loading}
                options={companyOptions}
                notFoundContent={companies.loading ? <Spin size="small" /> : companies.error ? companies.error : '暂无企业'}
                onChange={() => setCompanySearch('')}
              />
            </Form.Item>
          }
        />
        <Form.Item name="enabled" label="状态">
          <Radio.Group options={ENABLED_CHOICES} />
        </Form.Item>
        {dialog?.mode === 'add' && <p className="sys-hint">新用户使用平台默认密码，首次登录时需修改密码。</p>}
      </CrudFormModal>
    </div>
  );
}
