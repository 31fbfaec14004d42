import type ExcelJS from 'exceljs';
import type { ViewField } from './view-model.js';

/**
 * An import template: the first sheet is what the import reads (the header of the columns an import
 * writes, then empty rows where each column of choices has a drop-down of its labels); 填写示例 holds
 * one example row under the same header; the hidden 可选值 holds the drop-downs' lists. A drop-down
 * warns of a value it does not list but lets it stand, as an id is also accepted.
 */

export interface TemplateColumn {
  field: ViewField;
  /** The labels the drop-down offers; undefined for a typed column. */
  choices?: string[];
}

/** Rows of the first sheet given drop-downs. */
const TEMPLATE_ROWS = 1000;
export const EXAMPLE_SHEET = '填写示例';
export const CHOICES_SHEET = '可选值';

const EXAMPLE_PHONES: Record<string, string> = {
  mobile: '13800138000',
  phone: '13800138000',
  phoneOrLandline: '13800138000',
  landline: '0512-66881234',
  email: 'name@example.com',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A column's letters (1 → A, 27 → AA). */
function letters(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/** A value the form would accept for the example row, or null where it would be left empty. */
export function exampleValue(c: TemplateColumn, today: Date): string | number | null {
  const f = c.field;
  const form = f.form;
  if (c.choices?.length) return c.choices[0] ?? null;
  // A number the tips show ("如 RK202611210001") is the format's own example.
  const shown = form?.tips ? /如\s*([^\s，,。；;）)]+)/.exec(form.tips)?.[1] : undefined;
  if (shown) return shown;
  if (form?.validator && EXAMPLE_PHONES[form.validator]) return EXAMPLE_PHONES[form.validator] as string;
  if (f.file || form?.pattern || form?.validator) return null;
  const day = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  switch (f.dataType) {
    case 'long':
      return form?.defaultValue !== undefined ? Number(form.defaultValue) : Math.max(form?.min ?? 1, 1);
    case 'decimal':
      return form?.min !== undefined && form.min > 0 ? form.min : 1;
    case 'datetime':
      return f.dateOnly ? day : `${day} 08:00:00`;
    default:
      return form?.defaultValue !== undefined ? String(form.defaultValue) : `${f.label}示例`;
  }
}

/** A code of the national catalogue (900-249-08): its last two digits are its class (HW08). */
const WASTE_CODE = /^\d{3}-\d{3}-(\d{2})$/;
/** A class of the catalogue, as a choice's value or label begins (HW08, HW08 废矿物油与含矿物油废物). */
const WASTE_CLASS = /^HW(\d{2})(?:\s|$)/;

/** One code of the national catalogue and its class. */
export interface WasteCode {
  code: string;
  category: string;
}

/**
 * The example row: each column's example (exampleValue), a waste code agreeing with the row's waste
 * class. The code is the catalogue's first of the example's class (`codes`); without one, the class is
 * the choice of the code's class; without that, the code is left empty rather than contradict the class.
 */
export function exampleRow(columns: TemplateColumn[], today: Date, codes: readonly WasteCode[] = []): (string | number | null)[] {
  const row = columns.map((c) => exampleValue(c, today));
  const classAt = row.findIndex((v, i) => typeof v === 'string' && !!columns[i]?.choices?.length && WASTE_CLASS.test(v));
  const codeAt = row.findIndex((v, i) => typeof v === 'string' && !columns[i]?.choices?.length && WASTE_CODE.test(v));
  if (classAt < 0 || codeAt < 0) return row;
  const wanted = WASTE_CLASS.exec(String(row[classAt]))?.[1];
  const given = WASTE_CODE.exec(String(row[codeAt]))?.[1];
  if (wanted === given) return row;
  const listed = codes.find((c) => c.category === `HW${wanted}` && WASTE_CODE.test(c.code));
  if (listed) {
    row[codeAt] = listed.code;
    return row;
  }
  const choice = columns[classAt]?.choices?.find((label) => WASTE_CLASS.exec(label)?.[1] === given);
  if (choice) row[classAt] = choice;
  else row[codeAt] = null;
  return row;
}

/** ExcelJS keeps a sheet's validations by range, though its types do not say so. */
const validations = (ws: ExcelJS.Worksheet) =>
  (ws as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations;

export async function templateWorkbook(
  title: string,
  columns: TemplateColumn[],
  today = new Date(),
  codes: readonly WasteCode[] = [],
): Promise<Buffer> {
  // Loaded when a template is first asked for: ExcelJS is the largest module the server uses, and most
  // instances never write a template, so start-up does not load it.
  const { default: Excel } = await import('exceljs');
  const wb = new Excel.Workbook();
  const data = wb.addWorksheet(title.slice(0, 31) || 'Sheet1');
  const example = wb.addWorksheet(EXAMPLE_SHEET);
  const lists = wb.addWorksheet(CHOICES_SHEET, { state: 'hidden' });
  const header = columns.map((c) => c.field.label);
  const widths = columns.map((c) => ({ width: Math.min(Math.max(c.field.label.length * 2, 10) + 4, 40) }));
  for (const ws of [data, example]) {
    ws.columns = widths;
    ws.addRow(header).font = { bold: true };
  }
  example.addRow(exampleRow(columns, today, codes));
  example.addRow([]);
  example.addRow([`请在第一个工作表“${data.name}”中填写，每行一条记录；有下拉列表的列请从列表中选择，也可填写编号。`]);
  let listColumn = 0;
  columns.forEach((c, i) => {
    const col = letters(i + 1);
    const tips = c.field.form?.tips;
    if (tips) data.getCell(`${col}1`).note = tips;
    if (!c.choices?.length) return;
    listColumn++;
    const at = letters(listColumn);
    lists.getCell(`${at}1`).value = c.field.label;
    c.choices.forEach((label, k) => {
      lists.getCell(`${at}${k + 2}`).value = label;
    });
    validations(data).add(`${col}2:${col}${TEMPLATE_ROWS + 1}`, {
      type: 'list',
      allowBlank: true,
      formulae: [`'${CHOICES_SHEET}'!$${at}$2:$${at}$${c.choices.length + 1}`],
      showErrorMessage: true,
      errorStyle: 'warning',
      errorTitle: c.field.label,
      error: '请从下拉列表中选择',
    });
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
