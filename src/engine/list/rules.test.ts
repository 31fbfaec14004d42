import { describe, expect, it } from 'vitest';
import type { ButtonModel } from '../../model';
import {
  abilitiesOf,
  buttonAllowed,
  buttonShownOnRow,
  type Can,
  confirmDeleteText,
  importSummary,
  importToast,
  isRelation,
  linkedId,
  locationTarget,
  opensOnly,
  rowButtons,
  splitRowActions,
  systemTarget,
  toolbarButtonState,
  viewTarget,
} from './rules';

function button(over: Partial<ButtonModel>): ButtonModel {
  return { name: 'b', label: 'B', position: 'row', action: 'groovy', confirm: false, multiple: false, roles: [], ...over };
}

const permissions = { list: 's:list', add: 's:add', edit: 's:edit', del: 's:del', look: 's:look', pre: 's:pre' };
/** The permissions these roles hold, as the app decides them: by name, or all of them for `all`. */
const holding =
  (...roles: string[]): Can =>
  (p) =>
    roles.includes('all') || (typeof p === 'string' ? [p] : p).some((x) => roles.includes(x));

const features = { add: true, edit: true, del: true, look: true, export: true, import: true, template: true, index: true, operation: true };

describe('permissions', () => {
  it('needs both the switch and the permission', () => {
    expect(abilitiesOf({ features, permissions }, holding('s:add', 's:look'))).toMatchObject({
      add: true,
      edit: false,
      del: false,
      look: true,
      pre: false,
      import: true,
    });
    expect(abilitiesOf({ features, permissions }, holding('all'))).toMatchObject({
      add: true,
      edit: true,
      del: true,
      look: true,
      pre: true,
    });
    expect(abilitiesOf({ features: { ...features, del: false }, permissions }, holding('all')).del).toBe(false);
    // Import writes records: the add permission, not the import switch alone.
    expect(abilitiesOf({ features, permissions }, holding('s:list')).import).toBe(false);
  });
});

describe('custom button visibility', () => {
  it('shows to the administrator alone without roles, else to a holder of one of its roles', () => {
    expect(buttonAllowed(button({ roles: [] }), holding('stockIn:list', 'stockIn:edit'))).toBe(false);
    expect(buttonAllowed(button({ roles: [] }), holding('admin'))).toBe(true);
    expect(buttonAllowed(button({ roles: ['stockIn:edit'] }), holding('all'))).toBe(true);
    expect(buttonAllowed(button({ roles: ['admin', 'stockIn:edit'] }), holding('stockIn:edit'))).toBe(true);
    expect(buttonAllowed(button({ roles: ['admin', 'stockIn:edit'] }), holding('stockIn:list'))).toBe(false);
    expect(buttonAllowed(button({ roles: ['x'] }), holding())).toBe(false);
  });

  it('shows a row button only where the row matches showWhen, as text', () => {
    const b = button({ showWhen: { field: 'status', value: '0' }, roles: ['user'] });
    expect(buttonShownOnRow(b, { status: '0' })).toBe(true);
    expect(buttonShownOnRow(b, { status: 0 })).toBe(true);
    expect(buttonShownOnRow(b, { status: '1' })).toBe(false);
    expect(buttonShownOnRow(b, {})).toBe(false);
    expect(buttonShownOnRow(button({}), { status: '1' })).toBe(true);
    const list = [b, button({ name: 'tb', position: 'toolbar' }), button({ name: 'locked', roles: ['nobody'] })];
    expect(rowButtons(list, holding('user'), { status: '0' }).map((x) => x.name)).toEqual(['b']);
    expect(rowButtons(list, holding('user'), { status: '1' })).toEqual([]);
  });

  it('enables a toolbar button for the selection its action needs', () => {
    expect(toolbarButtonState(button({ action: 'groovy', multiple: true }), 0).enabled).toBe(false);
    expect(toolbarButtonState(button({ action: 'groovy', multiple: true }), 3).enabled).toBe(true);
    expect(toolbarButtonState(button({ action: 'submit', multiple: false }), 2)).toEqual({ enabled: false, reason: '请选择一条数据' });
    expect(toolbarButtonState(button({ action: 'website' }), 0).enabled).toBe(true);
    expect(toolbarButtonState(button({ action: 'view', foreignKey: 'fk' }), 0).enabled).toBe(false);
  });
});

describe('row action overflow', () => {
  it('keeps the first inline (查看) and puts the rest into 更多', () => {
    expect(splitRowActions([1])).toEqual({ inline: [1], more: [] });
    expect(splitRowActions([1, 2])).toEqual({ inline: [1], more: [2] });
    expect(splitRowActions([1, 2, 3, 4, 5, 6])).toEqual({ inline: [1], more: [2, 3, 4, 5, 6] });
    expect(splitRowActions([])).toEqual({ inline: [], more: [] });
  });
});

describe('texts and targets', () => {
  it('asks before deleting N rows', () => {
    expect(confirmDeleteText(3)).toBe('确认删除选中的3条数据？');
  });

  it('builds view, system and location targets', () => {
    expect(viewTarget(button({ name: 'stockOut', view: 13, foreignKey: 'stockInId' }), 7)).toBe(
      '/dev-tools/temp/page/stockOut/13?stockInId=7',
    );
    expect(viewTarget(button({ name: 'stockOut', view: 13 }), 7)).toBe('/dev-tools/temp/page/stockOut/13');
    expect(systemTarget('/dispose/vBuild/temp/30', '?a=1&rowId=2', 9)).toBe('/dispose/vBuild/temp/30?a=1&rowId=9');
    expect(systemTarget('/x?b=2', '', undefined)).toBe('/x?b=2');
    expect(systemTarget('/qrcode/print?size=30', '', 4, 3)).toBe('/qrcode/print?size=30&rowId=4&total=3');
    expect(systemTarget('/qrcode/print?total=8', '?total=2', 4, 3)).toBe('/qrcode/print?total=8&rowId=4');
    expect(systemTarget('/qrcode/print', '', undefined, 0)).toBe('/qrcode/print');
    expect(systemTarget('/x', '', 4, 3)).toBe('/x?rowId=4');
    expect(locationTarget('/dev-tools/temp/page/disposalOrder/19?stockId=1')).toEqual({
      inApp: true,
      href: '/dev-tools/temp/page/disposalOrder/19?stockId=1',
    });
    expect(locationTarget('https://example.com/a').inApp).toBe(false);
    expect(locationTarget('//evil.example').inApp).toBe(false);
    // Flow details and apply forms are the app's low-code pages; other app pages open a new window.
    expect(locationTarget(' /logistics/vBuild/temp/25?id=3 ')).toEqual({ inApp: true, href: '/logistics/vBuild/temp/25?id=3' });
    expect(locationTarget('/dispose/vBuild/temp/30').inApp).toBe(true);
    expect(locationTarget('/user/center').inApp).toBe(false);
    expect(locationTarget('/api/file/download?fileName=a.xlsx').inApp).toBe(false);
    expect(locationTarget('/dev-tools/temp/page/disposalOrder/x').inApp).toBe(false);
  });

  it('opens the record a row links, by its id, and only where the row links one', () => {
    const contract = button({ name: 'contract', action: 'dialog', view: 16, linkField: 'contractId' });
    expect(linkedId(contract, { contractId: 7 })).toBe('7');
    expect(linkedId(contract, { contractId: ' 7 ' })).toBe('7');
    for (const none of [{}, { contractId: null }, { contractId: '' }, { contractId: 'HT2026-0106' }, { contractId: '1,2' }])
      expect(linkedId(contract, none)).toBeUndefined();
    expect(buttonShownOnRow(contract, { contractId: 7 })).toBe(true);
    expect(buttonShownOnRow(contract, { contractId: null })).toBe(false);
    const both = button({ linkField: 'contractId', showWhen: { field: 'status', value: '1' } });
    expect(buttonShownOnRow(both, { contractId: 7, status: '1' })).toBe(true);
    expect(buttonShownOnRow(both, { contractId: 7, status: '0' })).toBe(false);
    expect(rowButtons([contract], holding('user'), { contractId: null })).toEqual([]);
    // A toolbar relation button needs its row.
    expect(toolbarButtonState(button({ action: 'dialog', view: 16, linkField: 'contractId' }), 0).enabled).toBe(false);
  });

  it("names the linked record by id: a view page, an in-app address; the current page's own record filter is not carried", () => {
    expect(viewTarget(button({ name: 'disposalOrder', view: 19, linkField: 'disposalOrderId' }), 3, '16')).toBe(
      '/dev-tools/temp/page/disposalOrder/19?id=16',
    );
    expect(systemTarget('/dispose/vBuild/temp/30', '?a=1&id=5', 3, 1, '16')).toBe('/dispose/vBuild/temp/30?a=1&rowId=3&id=16');
    // A button that links nothing does not pass on the page's record filter (it names another view's record).
    expect(systemTarget('/dispose/vBuild/temp/30', '?id=5', 3, 1)).toBe('/dispose/vBuild/temp/30?rowId=3');
  });

  it('tells relations and the buttons a read-only list keeps', () => {
    expect(isRelation(button({ action: 'dialog', linkField: 'warehouseId' }))).toBe(true);
    expect(isRelation(button({ action: 'system', linkField: 'disposalOrderId' }))).toBe(true);
    expect(isRelation(button({ action: 'view', foreignKey: 'stockInId' }))).toBe(true);
    expect(isRelation(button({ action: 'system', websiteUrl: '/x' }))).toBe(false);
    expect(isRelation(button({ action: 'groovy', linkField: 'x' }))).toBe(false);
    expect(
      ['dialog', 'view', 'website', 'system', 'submit', 'groovy'].filter((action) => opensOnly(button({ action } as Partial<ButtonModel>))),
    ).toEqual(['dialog', 'view', 'website', 'system']);
  });
});

describe('importSummary', () => {
  it('gives the toast and the dialog the same counts', () => {
    expect(importSummary({ succeeded: 3, failed: 0 })).toEqual({
      ok: true,
      title: '导入成功，详见返回的文件',
      counts: '成功 3 条，失败 0 条',
    });
    expect(importToast({ succeeded: 3, failed: 0 })).toBe('导入成功，详见返回的文件（成功 3 条，失败 0 条）');
    expect(importSummary({ succeeded: 0, failed: 2 })).toEqual({ ok: false, title: '导入完成', counts: '成功 0 条，失败 2 条' });
    expect(importToast({ succeeded: 0, failed: 2 })).toBe('导入完成：成功 0 条，失败 2 条，详见返回的文件');
    expect(importToast({})).toBe('导入成功，详见返回的文件');
  });
});
