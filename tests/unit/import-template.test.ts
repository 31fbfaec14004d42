import { describe, expect, it } from 'vitest';
import { exampleRow, type TemplateColumn } from '../../server/lowcode/import-template.js';
import type { ViewField } from '../../server/lowcode/view-model.js';

/** A varchar field of the form, with `form` (tips, pattern…) as the definition gives it. */
const field = (name: string, label: string, form: Record<string, unknown> = {}): ViewField =>
  ({
    name,
    column: name,
    label,
    dataType: 'varchar',
    form: { name, label, ...form },
    show: 1,
    file: false,
    dateOnly: false,
  }) as unknown as ViewField;

const CLASSES = ['HW06 废有机溶剂与含有机溶剂废物', 'HW08 废矿物油与含矿物油废物', 'HW49 其他废物'];
const category = (choices = CLASSES): TemplateColumn => ({ field: field('wasteCategory', '危废类别'), choices });
const code: TemplateColumn = {
  field: field('wasteCode', '废物代码', { pattern: '^\\d{3}-\\d{3}-\\d{2}$', tips: '《国家危险废物名录》八位代码，如 900-249-08' }),
};
const name: TemplateColumn = { field: field('wasteName', '危废名称') };
const today = new Date(2026, 11, 1);
const CATALOGUE = [
  { code: '900-249-08', category: 'HW08' },
  { code: '900-402-06', category: 'HW06' },
  { code: '900-404-06', category: 'HW06' },
];

/** The class a code belongs to: its last two digits. */
const classOf = (c: unknown) => `HW${String(c).slice(-2)}`;

describe('the import template’s example row', () => {
  it('takes the catalogue’s first code of the example’s waste class', () => {
    const row = exampleRow([category(), code, name], today, CATALOGUE);
    expect(row[0]).toBe('HW06 废有机溶剂与含有机溶剂废物');
    expect(row[1]).toBe('900-402-06');
    expect(classOf(row[1])).toBe(String(row[0]).slice(0, 4));
    expect(row[2]).toBe('危废名称示例');
  });

  it('without a catalogue, takes the class of the code the tips show', () => {
    const row = exampleRow([category(), code], today);
    expect(row).toEqual(['HW08 废矿物油与含矿物油废物', '900-249-08']);
  });

  it('leaves the code empty rather than pair it with another class', () => {
    const row = exampleRow([category(['HW06 废有机溶剂与含有机溶剂废物']), code], today);
    expect(row).toEqual(['HW06 废有机溶剂与含有机溶剂废物', null]);
  });

  it('keeps an example that agrees, and a row without a waste class, as they are', () => {
    expect(exampleRow([category(['HW08 废矿物油与含矿物油废物']), code], today, CATALOGUE)).toEqual([
      'HW08 废矿物油与含矿物油废物',
      '900-249-08',
    ]);
    expect(exampleRow([code, name], today, CATALOGUE)).toEqual(['900-249-08', '危废名称示例']);
  });
});
