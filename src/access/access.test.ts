import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const session = vi.hoisted(() => ({ roles: [] as string[] }));
vi.mock('../session/session-store', () => ({
  useSession: () => ({ status: 'ready', info: null, roles: session.roles, menus: [] }),
}));

const { Access, canAccess, usePermission } = await import('./access');

function render(roles: unknown, userRoles: string[]): string {
  session.roles = userRoles;
  return renderToStaticMarkup(createElement(Access, { roles: roles as string[] }, createElement('em', null, '新增')));
}

describe('<Access roles>', () => {
  beforeEach(() => {
    session.roles = [];
  });

  it('renders its children only for a user holding one of the roles', () => {
    expect(render(['user:add', 'user:edit'], ['user:edit'])).toBe('<em>新增</em>');
    expect(render(['user:add'], ['user:list', 'user:del'])).toBe('');
    expect(render(['user:add'], [])).toBe('');
  });

  it('lets admin and the wildcard through', () => {
    expect(render(['user:add'], ['admin'])).toBe('<em>新增</em>');
    expect(render(['user:add'], ['*:*:*'])).toBe('<em>新增</em>');
  });

  it('shows the fallback instead when given one', () => {
    session.roles = ['user:list'];
    const html = renderToStaticMarkup(createElement(Access, { roles: ['user:add'], fallback: createElement('span', null, '无权限') }, 'x'));
    expect(html).toBe('<span>无权限</span>');
  });

  it('throws a usage error on an empty or non-array list, whatever the user holds', () => {
    for (const userRoles of [['admin'], []]) {
      expect(() => render([], userRoles)).toThrow(/at least one role/);
      expect(() => render('user:add', userRoles)).toThrow(/needs an array of roles.*"user:add"/);
      expect(() => render(undefined, userRoles)).toThrow(/needs an array of roles.*undefined/);
      expect(() => render([''], userRoles)).toThrow(/non-empty role strings/);
    }
    expect(() => canAccess(['admin'], null)).toThrow(Error);
  });
});

describe('usePermission', () => {
  it('checks permissions against the session roles', () => {
    let check: ((p: string | readonly string[]) => boolean) | undefined;
    const Probe = () => {
      check = usePermission();
      return null;
    };
    session.roles = ['user:list'];
    renderToStaticMarkup(createElement(Probe));
    expect(check?.('user:list')).toBe(true);
    expect(check?.('user:add')).toBe(false);
    expect(check?.(['user:add', 'user:list'])).toBe(true);
    session.roles = ['admin'];
    renderToStaticMarkup(createElement(Probe));
    expect(check?.('anything')).toBe(true);
  });
});
