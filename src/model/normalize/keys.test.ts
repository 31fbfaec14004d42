import { describe, expect, it } from 'vitest';
import { normalizeDefinition } from '../normalize.js';
import type { ListPageModel } from '../types.js';
import { basicOptionShape, buttonConfigureShape, dialogOptionShape, fieldConfigureShape, templateShape } from '../wire.js';
import { compact, extraOf, KNOWN_BASIC, KNOWN_BUTTON, KNOWN_CONFIGURE, KNOWN_DIALOG, KNOWN_TEMPLATE } from './keys.js';

const blocks = [
  ['field configure', KNOWN_CONFIGURE, fieldConfigureShape, ['sort', 'dict', 'sportData_params', 'timeFmt', 'requiredRelation']],
  ['button configure', KNOWN_BUTTON, buttonConfigureShape, ['position', 'action', 'rootDIY', 'showRelation_value']],
  ['template', KNOWN_TEMPLATE, templateShape, ['basicOption', 'tableOption', 'formOption', 'btnDIYOption']],
  ['basicOption', KNOWN_BASIC, basicOptionShape, ['add', 'sortName', 'importSubmitUrl']],
  ['dialogOption', KNOWN_DIALOG, dialogOptionShape, ['width', 'key', 'initGroovy']],
] as const;

describe('known keys come from the wire shapes', () => {
  for (const [block, known, shape, some] of blocks) {
    it(`${block}: every key the wire shape names is known, and no other`, () => {
      expect([...known].sort()).toEqual(Object.keys(shape).sort());
      for (const key of some) expect(known.has(key)).toBe(true);
    });

    it(`${block}: a known key never lands in extra, an unknown one does`, () => {
      for (const key of Object.keys(shape)) expect(extraOf({ [key]: 1, novelKey: [1, 2] }, known)).toEqual({ novelKey: [1, 2] });
      expect(extraOf(Object.fromEntries(Object.keys(shape).map((k) => [k, 1])), known)).toBeUndefined();
    });
  }

  it('keeps unknown keys of a definition as extra through the normaliser, sorted, and the known ones in the model', () => {
    const json = {
      id: 7,
      disMenu: { componentName: 'keys', name: '键' },
      disTemplate: {
        futureOption: { a: 1 },
        basicOption: { add: true, zebra: true },
        dialogOption: { width: 500, draggable: true },
        tableOption: [
          { name: 'title', chName: '标题', dataType: 'varchar', configure: { dict: 'd', search: true, zIndex: 3, color: 'red' } },
        ],
        btnDIYOption: [
          { name: 'go', chName: '去', configure: { action: 'website', websiteUrl: 'https://example.com/', icon: 'el-icon-s' } },
        ],
      },
    };
    const r = normalizeDefinition({ kind: 'view', file: 'definitions/views/7-keys.json', json });
    expect(r.problems).toEqual([]);
    const page = r.page as ListPageModel;
    expect(page.extra).toEqual({ template: { futureOption: { a: 1 } }, basicOption: { zebra: true }, dialogOption: { draggable: true } });
    expect(page.form.fields[0]?.extra).toEqual({ color: 'red', zIndex: 3 });
    expect(Object.keys(page.form.fields[0]?.extra ?? {})).toEqual(['color', 'zIndex']);
    expect(page.columns[0]?.extra).toEqual({ color: 'red', zIndex: 3 });
    expect(page.form.fields[0]?.dict).toBe('d');
    expect(page.buttons[0]?.extra).toEqual({ icon: 'el-icon-s' });
    expect(page.features.add).toBe(true);
    expect(page.form.dialog.width).toBe(500);
  });
});

describe('compact', () => {
  it('drops undefined members and keeps the order of the rest, a __proto__ key as a plain key', () => {
    const built = JSON.parse('{"a":1,"b":null,"__proto__":{"x":1},"d":false,"e":""}') as Record<string, unknown>;
    built.c = undefined;
    built.f = 0;
    const out = compact(built);
    expect(Object.keys(out)).toEqual(['a', 'b', '__proto__', 'd', 'e', 'f']);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).not.toBe(built);
  });

  it('answers the object itself when no member is undefined', () => {
    const whole = { a: 1, b: null, c: [undefined] };
    expect(compact(whole)).toBe(whole);
  });
});
