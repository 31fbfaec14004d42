import { Form, Input, Select, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import type { ContractList } from '../../../app/data-provider';
import { listTableProps, useFilters, useListCrud } from '../../../engine';
import { notify } from '../../../notify/notifier';
import { APPLICATION_STATUS, toneColor } from '../../../shared/statuses';
import { AccountFields } from './account-fields';
import { type ApplicationRow, applications, SOURCES } from './api';
import { ActionLinks, SYSTEM_TABLE } from './columns';
import { FormModal } from './form-modal';
import { approvalDefaults, MESSAGES, ruleOf, SYSTEM_CRUD, usernameError } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import { useAccountChoices } from './use-account-choices';
import './system.css';

interface ApproveForm {
  id: number;
  username: string;
  deptId?: number;
  roleIds: number[];
  permission: string;
}

interface RejectForm {
  id: number;
  reason: string;
}

const STATUS_FILTER = [{ value: '', label: '全部状态' }];
/** The list opens on the applications waiting for a decision. */
const PENDING: { blurry?: string; status: string } = { status: '0' };
/** The states of an application, named and coloured as everywhere (shared/statuses). */
const STATUS = APPLICATION_STATUS.entries.map((e) => ({ value: e.value, label: e.label, color: toneColor(e.tone) }));

/**
 * 企业入驻审核: the applications made through the login page's apply dialog. 通过 creates the
 * company and its first account and sends that account a system message; 驳回 asks for a reason.
 * Both are recorded with who decided and when.
 */
export function CompanyApplyPage() {
  const { list } = useListCrud<ApplicationRow, ContractList>(SOURCES.applications, { values: PENDING }, SYSTEM_CRUD);
  const [{ status }, filterBy] = useFilters(list, PENDING);
  const [approving, setApproving] = useState<ApplicationRow | null>(null);
  const [rejecting, setRejecting] = useState<ApplicationRow | null>(null);
  const [approveForm] = Form.useForm<ApproveForm>();
  const [rejectForm] = Form.useForm<RejectForm>();

  const choices = useAccountChoices();
  const { roles, depts } = choices;

  const approveInitial = useMemo(
    () => (approving ? { id: approving.id, ...approvalDefaults(approving, roles.data ?? [], depts.data ?? []) } : {}),
    [approving, roles.data, depts.data],
  );

  const approve = async (v: ApproveForm) => {
    const r = await applications.approve({
      id: v.id,
      username: v.username.trim(),
      roles: v.roleIds.map((id) => ({ id })),
      permission: v.permission || null,
    });
    notify.success(`${r.message}（账号 ${r.username}）`);
    setApproving(null);
    list.reload();
  };

  const reject = async (v: RejectForm) => {
    const r = await applications.reject({ id: v.id, reason: v.reason.trim() });
    notify.success(r.message);
    setRejecting(null);
    list.reload();
  };

  return (
    <div className="sys-page" data-page="system-company-apply">
      <SearchToolbar
        placeholder="输入企业名称、申请人或手机号搜索"
        label="搜索申请"
        width={260}
        onSearch={(blurry) => filterBy({ blurry })}
        filters={
          <Select
            placeholder="审核状态"
            style={{ width: 120 }}
            value={status}
            onChange={(v) => filterBy({ status: v })}
            options={[...STATUS_FILTER, ...STATUS.map(({ value, label }) => ({ value, label }))]}
            aria-label="审核状态"
          />
        }
      />
      <LoadError error={list.error} retry={list.reload} />
      <Table<ApplicationRow>
        {...listTableProps(list)}
        {...SYSTEM_TABLE}
        locale={{ emptyText: status === '0' ? '暂无待审核的申请' : '暂无数据' }}
        columns={[
          { title: '企业名称', dataIndex: 'name' },
          { title: '企业类型', dataIndex: 'comtype', width: 100 },
          { title: '企业地址', dataIndex: 'regionFmt', ellipsis: true },
          { title: '申请人', dataIndex: 'applicant', width: 100 },
          { title: '手机号', dataIndex: 'phone', width: 120 },
          { title: '申请时间', dataIndex: 'createTime', width: 170 },
          {
            title: '状态',
            dataIndex: 'status',
            width: 90,
            render: (s: number) => {
              const st = STATUS[s];
              return st ? <Tag color={st.color}>{st.label}</Tag> : s;
            },
          },
          {
            title: '审核结果',
            render: (_, r) =>
              r.status === 0 ? null : (
                <span>
                  {r.reviewerName} {r.reviewTime}
                  {r.status === 1 && r.username ? `，账号 ${r.username}` : ''}
                  {r.status === 2 && r.reason ? `，原因：${r.reason}` : ''}
                </span>
              ),
          },
          {
            title: '操作',
            width: 130,
            render: (_, r) =>
              r.status === 0 ? (
                <ActionLinks
                  links={[
                    { label: '通过', permission: 'companyApply:approve', onClick: () => setApproving(r) },
                    { label: '驳回', permission: 'companyApply:reject', danger: true, onClick: () => setRejecting(r) },
                  ]}
                />
              ) : null,
          },
        ]}
      />
      <FormModal<ApproveForm>
        title={approving ? `审核通过：${approving.name}` : '审核通过'}
        okText="通过"
        open={approving !== null}
        form={approveForm}
        initialValues={approveInitial}
        onSubmit={approve}
        onClose={() => setApproving(null)}
      >
        <p className="sys-hint">通过后将创建该企业及其首个账号（平台默认密码，首次登录需修改），并给该账号发送系统消息。</p>
        <Form.Item name="username" label="登录账号" required rules={[ruleOf(usernameError)]}>
          <Input maxLength={50} autoComplete="off" />
        </Form.Item>
        <p className="sys-hint">账号将放在新企业自己的部门中。</p>
        <AccountFields choices={choices} dept={false} />
      </FormModal>
      <FormModal<RejectForm>
        title={rejecting ? `驳回：${rejecting.name}` : '驳回'}
        okText="驳回"
        open={rejecting !== null}
        form={rejectForm}
        initialValues={rejecting ? { id: rejecting.id, reason: '' } : {}}
        onSubmit={reject}
        onClose={() => setRejecting(null)}
      >
        <Form.Item name="reason" label="驳回原因" rules={[{ required: true, whitespace: true, message: MESSAGES.reasonRequired }]}>
          <Input.TextArea rows={4} maxLength={500} showCount />
        </Form.Item>
      </FormModal>
    </div>
  );
}
