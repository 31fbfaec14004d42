import { describe, expect, it } from 'vitest';
import { approvalDefaults, emailError, grantWithAncestors, nest, parentOptions, toggleGrant, usernameError } from './rules';

describe('system admin form rules', () => {
  it.each([
    ['', null],
    ['a@b.cn', null],
    ['a@b', '电子邮箱格式不正确'],
  ])('e-mail %j: optional, else well formed → %j', (value, message) => {
    expect(emailError(value)).toBe(message);
  });
  it('username: required, 2 to 50 letters, digits and _ . @ -', () => {
    expect(usernameError('')).toBe('请输入用户名');
    expect(usernameError('a')).toBe('用户名由 2 到 50 位字母、数字、下划线组成');
    expect(usernameError('张三')).toBe('用户名由 2 到 50 位字母、数字、下划线组成');
    expect(usernameError('zhang_3')).toBeNull();
  });
});

describe('trees', () => {
  const rows = [
    { id: 1, pid: null },
    { id: 2, pid: 1 },
    { id: 3, pid: 2 },
    { id: 4, pid: 2 },
    { id: 5, pid: null },
    { id: 6, pid: 99 },
  ];
  it('nests by pid; an unknown parent makes a root', () => {
    expect(nest(rows)).toEqual([
      {
        id: 1,
        pid: null,
        children: [
          {
            id: 2,
            pid: 1,
            children: [
              { id: 3, pid: 2 },
              { id: 4, pid: 2 },
            ],
          },
        ],
      },
      { id: 5, pid: null },
      { id: 6, pid: 99 },
    ]);
  });
  it('a row goes under a row that holds children, never under itself nor its own children', () => {
    const title = (r: { id: number }) => `#${r.id}`;
    expect(parentOptions(nest(rows), 2, title, () => true)).toEqual([
      { value: 1, title: '#1', children: undefined },
      { value: 5, title: '#5', children: undefined },
      { value: 6, title: '#6', children: undefined },
    ]);
    expect(parentOptions(nest(rows), undefined, title, (r) => r.id !== 3)[0]).toEqual({
      value: 1,
      title: '#1',
      children: [{ value: 2, title: '#2', children: [{ value: 4, title: '#4', children: undefined }] }],
    });
  });
  it('a grant carries the ancestors of what is checked', () => {
    expect(grantWithAncestors(rows, [3])).toEqual([1, 2, 3]);
    expect(grantWithAncestors(rows, [5, 4])).toEqual([1, 2, 4, 5]);
  });
  it('checking a box checks its subtree and ancestors; unchecking clears its subtree only', () => {
    expect(toggleGrant(rows, [], 2, true)).toEqual([1, 2, 3, 4]);
    expect(toggleGrant(rows, [], 4, true)).toEqual([1, 2, 4]);
    expect(toggleGrant(rows, [1, 2, 3, 4, 5], 2, false)).toEqual([1, 5]);
    expect(toggleGrant(rows, [1, 2, 3, 4], 3, false)).toEqual([1, 2, 4]);
  });
});

describe('approval defaults', () => {
  const roles = [
    { id: 1, name: '超级管理员' },
    { id: 3, name: '产废企业' },
    { id: 5, name: '物流企业' },
  ];
  const depts = [
    {
      id: 1,
      name: '平台',
      children: [
        { id: 3, name: '产废企业部' },
        { id: 5, name: '物流企业部' },
      ],
    },
  ];
  it('takes the phone as the account, the role and department named like the type, and its account kind', () => {
    expect(approvalDefaults({ phone: '13700000000', type: '3', comtype: '物流企业' }, roles, depts)).toEqual({
      username: '13700000000',
      roleIds: [5],
      deptId: 5,
      permission: 'logistics',
    });
    expect(approvalDefaults({ phone: '13700000000', type: '1', comtype: '产废企业' }, roles, depts)).toMatchObject({
      roleIds: [3],
      deptId: 3,
      permission: '',
    });
  });
  it('leaves role and department empty for a type nothing is named after', () => {
    expect(approvalDefaults({ phone: '13700000000', type: '5', comtype: '仓储企业' }, roles, depts)).toMatchObject({
      roleIds: [],
      deptId: undefined,
    });
  });
});
