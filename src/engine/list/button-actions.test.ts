import { describe, expect, it, vi } from 'vitest';
import type { ButtonModel } from '../../model';
import { type ButtonContext, runButton } from './button-actions';

function button(over: Partial<ButtonModel>): ButtonModel {
  return { name: 'b', label: 'B', position: 'row', action: 'submit', confirm: false, multiple: false, roles: [], ...over };
}

function context(answer: unknown = { status: 200, message: '操作成功' }, confirmed = true) {
  const calls: string[] = [];
  const ctx: ButtonContext = {
    model: {
      viewId: 12,
      api: { groovy: '/api/general/groovy/12' } as ButtonContext['model']['api'],
      form: { dialog: { key: 'id' } } as ButtonContext['model']['form'],
    },
    data: {
      custom: vi.fn(async ({ url, method, query, payload }) => {
        calls.push(`${method === 'post' ? 'POST' : 'GET'} ${url} ${JSON.stringify(method === 'post' ? payload : query)}`);
        return answer;
      }) as never,
      groovy: vi.fn(async ({ resource, name, action, ids }) => {
        calls.push(`GROOVY ${resource.api.groovy} ${JSON.stringify({ name, action, ids })}`);
        return answer;
      }) as never,
    },
    download: vi.fn(async (url: string, params?: unknown) => {
      calls.push(`DOWNLOAD ${url} ${JSON.stringify(params)}`);
      return true;
    }),
    notify: {
      success: vi.fn((t: string) => void calls.push(`notice ${t}`)),
      error: vi.fn((t: string) => void calls.push(`error ${t}`)),
      confirm: vi.fn(async () => confirmed),
    },
    navigate: (to) => void calls.push(`navigate ${to}`),
    openWindow: (url) => void calls.push(`window ${url}`),
    search: '?a=1',
    reload: () => void calls.push('reload'),
    openView: (b, row, linked) => void calls.push(`dialog ${b.view} ${JSON.stringify(row)}${linked ? ` linked ${linked}` : ''}`),
  };
  return { ctx, calls };
}

const rows = [{ id: 3, status: '0' }, { id: 5 }];

describe('custom button actions', () => {
  it('asks first when the button says so, and does nothing when declined', async () => {
    const { ctx, calls } = context(undefined, false);
    expect(await runButton(button({ confirm: true, submitUrl: '/x', submitType: 'post' }), rows, ctx)).toBe(false);
    expect(ctx.notify.confirm).toHaveBeenCalledWith({ title: '提示', content: '确认执行该操作？' });
    expect(calls).toEqual([]);
  });

  it('submits get, post and download with id as a comma list, and says 提交成功', async () => {
    const { ctx, calls } = context();
    await runButton(button({ submitUrl: '/g', submitType: 'get' }), rows, ctx);
    await runButton(button({ submitUrl: '/p', submitType: 'post' }), rows, ctx);
    await runButton(button({ submitUrl: '/d', submitType: 'download' }), rows, ctx);
    expect(calls).toEqual([
      'GET /g {"id":"3,5"}',
      'notice 提交成功',
      'reload',
      'POST /p {"id":"3,5"}',
      'notice 提交成功',
      'reload',
      'DOWNLOAD /d {"id":"3,5"}',
    ]);
  });

  it('posts groovy actions with their ids and follows a location', async () => {
    const inApp = context({ status: 200, location: '/dev-tools/temp/page/disposalOrder/19?stockId=3' });
    await runButton(button({ action: 'groovy', name: 'genOrder', groovyAction: 'createDisposalOrder' }), rows.slice(0, 1), inApp.ctx);
    expect(inApp.calls).toEqual([
      'GROOVY /api/general/groovy/12 {"name":"genOrder","action":"createDisposalOrder","ids":[3]}',
      'navigate /dev-tools/temp/page/disposalOrder/19?stockId=3',
      'reload',
    ]);
    // Without a location a script says what its answer says, else 操作成功.
    const done = context({ status: 200 });
    await runButton(button({ action: 'groovy', name: 'markStocked' }), rows, done.ctx);
    expect(done.calls).toContain('notice 操作成功');
    const outside = context({ location: 'https://flow.example/detail/1' });
    await runButton(button({ action: 'groovy' }), rows, outside.ctx);
    expect(outside.calls).toContain('window https://flow.example/detail/1');
  });

  it('opens views, websites and in-app paths', async () => {
    const { ctx, calls } = context();
    await runButton(button({ action: 'view', name: 'stockOut', view: 13, foreignKey: 'stockInId' }), rows.slice(0, 1), ctx);
    await runButton(button({ action: 'website', websiteUrl: 'https://www.mee.gov.cn/' }), [], ctx);
    await runButton(button({ action: 'system', websiteUrl: '/dispose/vBuild/temp/30' }), rows.slice(0, 1), ctx);
    await runButton(button({ action: 'dialog', view: 14 }), rows.slice(0, 1), ctx);
    await runButton(button({ action: 'system', position: 'toolbar', websiteUrl: '/qrcode/print?size=30' }), rows, ctx);
    expect(calls).toEqual([
      'navigate /dev-tools/temp/page/stockOut/13?stockInId=3',
      'window https://www.mee.gov.cn/',
      'navigate /dispose/vBuild/temp/30?a=1&rowId=3',
      'dialog 14 {"id":3,"status":"0"}',
      `navigate /qrcode/print?a=1&size=30&rowId=3&total=${rows.length}`,
    ]);
  });

  it('opens the record a row links, by id: in a dialog, on a view page, at an in-app address', async () => {
    const { ctx, calls } = context();
    const row = [{ id: 3, contractId: 16, disposalOrderId: 9 }];
    await runButton(button({ action: 'dialog', view: 16, linkField: 'contractId' }), row, ctx);
    await runButton(button({ action: 'view', name: 'disposalOrder', view: 19, linkField: 'disposalOrderId' }), row, ctx);
    await runButton(button({ action: 'system', websiteUrl: '/dispose/vBuild/temp/30', linkField: 'disposalOrderId' }), row, ctx);
    // A row that links nothing opens nothing.
    expect(await runButton(button({ action: 'dialog', view: 16, linkField: 'contractId' }), [{ id: 4, contractId: null }], ctx)).toBe(
      false,
    );
    expect(calls).toEqual([
      `dialog 16 ${JSON.stringify(row[0])} linked 16`,
      'navigate /dev-tools/temp/page/disposalOrder/19?id=9',
      'navigate /dispose/vBuild/temp/30?a=1&rowId=3&id=9',
    ]);
  });

  it('refuses to open or follow an address with a scheme other than http, https, mailto or tel, whatever model it was given', async () => {
    const unsafe = [
      "javascript:alert('x')",
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>1</script>',
      'vbscript:x',
    ];
    for (const url of unsafe) {
      const { ctx, calls } = context();
      expect(await runButton(button({ action: 'website', websiteUrl: url }), [], ctx), url).toBe(false);
      expect(await runButton(button({ action: 'system', websiteUrl: url }), rows.slice(0, 1), ctx), url).toBe(false);
      expect(calls).toEqual(['error 链接地址不安全，未打开', 'error 链接地址不安全，未打开']);
    }
    // A script's answer: it has run, so the list reloads, but its address is not opened.
    const script = context({ status: 200, location: 'javascript:alert(document.cookie)' });
    expect(await runButton(button({ action: 'groovy', name: 'g' }), rows.slice(0, 1), script.ctx)).toBe(true);
    expect(script.calls).toEqual([
      'GROOVY /api/general/groovy/12 {"name":"g","action":"g","ids":[3]}',
      'error 链接地址不安全，未打开',
      'reload',
    ]);
    const mail = context();
    await runButton(button({ action: 'website', websiteUrl: 'mailto:ops@example.com' }), [], mail.ctx);
    expect(mail.calls).toEqual(['window mailto:ops@example.com']);
  });

  it('reports a failed call as not done, without a notice', async () => {
    const { ctx, calls } = context();
    ctx.data.custom = vi.fn(async () => {
      throw new Error('boom');
    }) as never;
    expect(await runButton(button({ submitUrl: '/p', submitType: 'post' }), rows, ctx)).toBe(false);
    expect(calls).toEqual([]);
  });
});
