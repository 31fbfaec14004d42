/**
 * Form rules, messages and tree helpers of the system administration pages, shared by the pages and
 * their tests. The server applies the same rules and answers with the same messages.
 */
import { VALIDATORS } from '../../../model';
import { nickNameError, PERSON_MESSAGES, phoneError } from '../../../shared/person-rule';

export { nickNameError, phoneError };

export const USERNAME_RE = /^[A-Za-z0-9_.@-]{2,50}$/;

export const MESSAGES = {
  usernameRequired: '请输入用户名',
  usernameFormat: '用户名由 2 到 50 位字母、数字、下划线组成',
  ...PERSON_MESSAGES,
  emailFormat: VALIDATORS.email.message,
  rolesRequired: '请选择角色',
  confirmTitle: '提示',
  deleted: '删除成功',
  added: '新增成功',
  edited: '修改成功',
  saved: '保存成功',
  reasonRequired: '请输入驳回原因',
} as const;

export const confirmDeleteText = (what: string) => `确定删除${what}吗？`;

/** The system lists' CRUD texts: 新增成功, 修改成功 and 删除成功; each delete names what goes (confirmDeleteText). */
export const SYSTEM_CRUD = {
  texts: { added: MESSAGES.added, edited: MESSAGES.edited, deleted: MESSAGES.deleted, confirmTitle: MESSAGES.confirmTitle },
};

/** E-mail is optional; when given it must be well formed. */
export function emailError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return !v || VALIDATORS.email.test(v) ? null : MESSAGES.emailFormat;
}

export function usernameError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return MESSAGES.usernameRequired;
  return USERNAME_RE.test(v) ? null : MESSAGES.usernameFormat;
}

/** An antd Form rule from a check returning a message or null. */
export const ruleOf = (check: (v: string | null | undefined) => string | null) => ({
  validator: (_: unknown, v: string | null | undefined) => {
    const m = check(v);
    return m ? Promise.reject(new Error(m)) : Promise.resolve();
  },
});

export interface FlatNode {
  id: number;
  pid: number | null;
}
export type TreeOf<T> = T & { children?: TreeOf<T>[] };

/** Nests rows by pid (roots: null, or a pid not among the rows), keeping the rows' order. */
export function nest<T extends FlatNode>(rows: readonly T[]): TreeOf<T>[] {
  const ids = new Set(rows.map((r) => r.id));
  const byPid = new Map<number | null, T[]>();
  for (const r of rows) {
    const key = r.pid !== null && ids.has(r.pid) ? r.pid : null;
    byPid.set(key, [...(byPid.get(key) ?? []), r]);
  }
  const build = (pid: number | null, seen: Set<number>): TreeOf<T>[] =>
    (byPid.get(pid) ?? [])
      .filter((r) => !seen.has(r.id))
      .map((r) => {
        const children = build(r.id, new Set([...seen, r.id]));
        return children.length ? { ...r, children } : { ...r };
      });
  return build(null, new Set());
}

/** The 0 of a parent picker: a row at the top level. */
export const TOP = 0;

export interface ParentOption {
  value: number;
  title: string;
  children?: ParentOption[];
}

/** The rows a row may go under: those that hold children, never the row itself nor its own children. */
export function parentOptions<T extends FlatNode>(
  nodes: TreeOf<T>[],
  exclude: number | undefined,
  title: (row: T) => string,
  holds: (row: T) => boolean,
): ParentOption[] {
  return nodes
    .filter((n) => holds(n) && n.id !== exclude)
    .map((n) => {
      const children = parentOptions(n.children ?? [], exclude, title, holds);
      return { value: n.id, title: title(n), children: children.length ? children : undefined };
    });
}

/** Ids of a node and all below it. */
export function subtreeOf<T extends { id: number; children?: T[] }>(nodes: readonly T[], id: number): number[] {
  for (const n of nodes) {
    if (n.id === id) {
      const out: number[] = [];
      const walk = (x: T) => {
        out.push(x.id);
        for (const c of x.children ?? []) walk(c);
      };
      walk(n);
      return out;
    }
    const inner = subtreeOf(n.children ?? [], id);
    if (inner.length) return inner;
  }
  return [];
}

/**
 * The menu ids a role grant sends for the boxes checked in the tree: the checked ones and every
 * ancestor of them, so a granted page keeps its directory and a granted button its page.
 */
export function grantWithAncestors(rows: readonly FlatNode[], checked: readonly number[]): number[] {
  const pidOf = new Map(rows.map((r) => [r.id, r.pid]));
  const out = new Set<number>();
  for (const id of checked) {
    let cur: number | null | undefined = id;
    while (cur != null && !out.has(cur)) {
      out.add(cur);
      cur = pidOf.get(cur);
    }
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * A box of the grant tree changed: checking a menu checks everything below it and everything above
 * it (a button needs its page, a page its directory); unchecking one unchecks everything below it.
 */
export function toggleGrant(rows: readonly FlatNode[], granted: readonly number[], id: number, on: boolean): number[] {
  const below = new Map<number, number[]>();
  for (const r of rows) if (r.pid !== null) below.set(r.pid, [...(below.get(r.pid) ?? []), r.id]);
  const subtree: number[] = [];
  const walk = (x: number) => {
    subtree.push(x);
    for (const c of below.get(x) ?? []) walk(c);
  };
  walk(id);
  const set = new Set(granted);
  if (on) for (const x of grantWithAncestors(rows, subtree)) set.add(x);
  else for (const x of subtree) set.delete(x);
  return [...set].sort((a, b) => a - b);
}

/** The account kind (user permission) of a company type: 3 物流企业 → logistics, 4 收集点 → collectionPoint, else none. */
export const PERMISSION_OF_TYPE: Readonly<Record<string, string>> = { '3': 'logistics', '4': 'collectionPoint' };

export interface ApprovalDefaults {
  username: string;
  roleIds: number[];
  deptId: number | undefined;
  permission: string;
}

/**
 * What the approve dialog starts from: the applicant's phone as the account name, the role named
 * like the company type (产废企业, 处置企业, …), the department whose name starts with it, and the
 * type's account kind. The reviewer can change each before approving.
 */
export function approvalDefaults(
  application: { phone: string; type: string; comtype: string | null },
  roles: readonly { id: number; name: string }[],
  depts: readonly { id: number; name: string; children?: unknown[] }[],
): ApprovalDefaults {
  const label = (application.comtype ?? '').trim();
  const flat: { id: number; name: string }[] = [];
  const walk = (nodes: readonly { id: number; name: string; children?: unknown[] }[]) => {
    for (const n of nodes) {
      flat.push(n);
      if (n.children) walk(n.children as typeof nodes);
    }
  };
  walk(depts);
  return {
    username: application.phone,
    roleIds: label ? roles.filter((r) => r.name === label).map((r) => r.id) : [],
    deptId: label ? flat.find((d) => d.name.startsWith(label))?.id : undefined,
    permission: PERMISSION_OF_TYPE[application.type] ?? '',
  };
}
