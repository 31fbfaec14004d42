import { Form, Select, Spin, TreeSelect } from 'antd';
import { type ReactNode, useMemo } from 'react';
import type { Lookup } from '../../../request';
import type { DeptNode, RoleRow } from './api';
import { MESSAGES } from './rules';

/** The 企业类别 choices of an account. */
const ACCOUNT_KINDS = [
  { value: '', label: '其他' },
  { value: 'logistics', label: '物流企业（logistics）' },
  { value: 'collectionPoint', label: '收集点（collectionPoint）' },
];

/** The 角色 field of an account: at least one role, picked among every role. */
function RolesField({ roles, placeholder }: { roles: AccountChoices['roles']; placeholder?: string }) {
  return (
    <Form.Item name="roleIds" label="角色" required rules={[{ required: true, type: 'array', min: 1, message: MESSAGES.rolesRequired }]}>
      <Select
        mode="multiple"
        placeholder={placeholder}
        loading={roles.loading}
        options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        optionFilterProp="label"
        aria-label="角色"
      />
    </Form.Item>
  );
}

export interface DeptOption {
  key: number;
  value: number;
  title: string;
  /** The company that owns the department; null for the platform's own. */
  companyId: number | null;
  /** Not to be picked here: a department of another company than the account's. */
  disabled?: boolean;
  children?: DeptOption[];
}

/** What an account is placed in: every role, and the department tree with the same as options of a tree or a tree picker. */
export interface AccountChoices {
  roles: Lookup<RoleRow[] | undefined>;
  depts: Lookup<DeptNode[] | undefined> & { options: DeptOption[] };
}

export const toDeptOptions = (nodes: DeptNode[]): DeptOption[] =>
  nodes.map((n) => ({
    key: n.id,
    value: n.id,
    title: n.name,
    companyId: n.companyId ?? null,
    children: n.children ? toDeptOptions(n.children) : undefined,
  }));

/**
 * The departments an account of `companyId` may sit in: its company's own (a platform account: the
 * platform's); others stay in the tree, greyed, so the tree keeps its shape. `undefined`: no company chosen yet.
 */
export function deptOptionsFor(options: DeptOption[], companyId: number | null | undefined): DeptOption[] {
  if (companyId === undefined) return options;
  return options.map((o) => ({
    ...o,
    disabled: o.companyId !== companyId,
    children: o.children ? deptOptionsFor(o.children, companyId) : undefined,
  }));
}

/** A department's company among the options, or undefined when it is not among them. */
export function companyOfDept(options: DeptOption[], id: number): number | null | undefined {
  for (const o of options) {
    if (o.value === id) return o.companyId;
    const inner = o.children ? companyOfDept(o.children, id) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * An account's 部门, 角色 and 企业类别 fields, with the form's own 岗位 after the department and its
 * 所属企业 after the roles. A company's accounts sit in its own departments: with `company`, only the
 * departments of the chosen 所属企业 can be picked. Without `dept`, the department is not asked (a new
 * company's first account sits in the company's own department).
 */
export function AccountFields({
  choices,
  rolesPlaceholder,
  job,
  company,
  dept = true,
}: {
  choices: AccountChoices;
  rolesPlaceholder?: string;
  job?: ReactNode;
  company?: ReactNode;
  dept?: boolean;
}) {
  const form = Form.useFormInstance();
  const companyId = Form.useWatch<number | null | undefined>('companyId', form);
  const options = useMemo(
    () => deptOptionsFor(choices.depts.options, company ? (companyId ?? null) : undefined),
    [choices.depts.options, company, companyId],
  );
  return (
    <>
      {dept && (
        <Form.Item
          name="deptId"
          label="部门"
          dependencies={company ? ['companyId'] : []}
          rules={
            company
              ? [
                  {
                    validator: async (_, value: number | null | undefined) => {
                      if (value === null || value === undefined) return;
                      const owner = companyOfDept(choices.depts.options, value);
                      if (owner !== undefined && owner !== (form.getFieldValue('companyId') ?? null))
                        throw new Error('所选部门不属于该用户的企业');
                    },
                  },
                ]
              : []
          }
        >
          <TreeSelect
            aria-label="部门"
            treeData={options}
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            treeDefaultExpandAll
            placeholder="选择部门"
            loading={choices.depts.loading}
            notFoundContent={choices.depts.loading ? <Spin size="small" /> : choices.depts.error ? '部门加载失败' : '暂无部门'}
          />
        </Form.Item>
      )}
      {job}
      <RolesField roles={choices.roles} placeholder={rolesPlaceholder} />
      {company}
      <Form.Item name="permission" label="企业类别">
        <Select options={ACCOUNT_KINDS} />
      </Form.Item>
    </>
  );
}
