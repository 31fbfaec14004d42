import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ListPageModel, normalizeDefinition } from '../model';
import { cityLabels, REFERENCE_IDS, SAMPLE_ROWS, sampleDataView, sampleDict, sampleRows } from './sample-data';

const demo = (file: string): ListPageModel => {
  const json = JSON.parse(readFileSync(join(import.meta.dirname, '../../definitions/views', file), 'utf8'));
  const page = normalizeDefinition({ kind: 'view', file, json }).page;
  if (page?.kind !== 'list') throw new Error(`${file} is not a list view`);
  return page;
};

describe('sample rows', () => {
  const stockIn = demo('12-stock-in.json');
  const rows = sampleRows(stockIn);

  it('are the same on every run, and as many as a list shows', () => {
    expect(rows).toHaveLength(SAMPLE_ROWS);
    expect(sampleRows(demo('12-stock-in.json'))).toEqual(rows);
  });

  it('give a field the same values whatever else the definition changes', () => {
    const relabelled = structuredClone(stockIn);
    (relabelled.columns[0] as { label: string }).label = '入库编号';
    relabelled.form.fields.push({
      ...(relabelled.form.fields[0] as ListPageModel['form']['fields'][number]),
      name: 'extraNote',
      label: '附加说明',
    });
    const again = sampleRows(relabelled);
    for (const f of stockIn.form.fields) expect(again.map((r) => r[f.name])).toEqual(rows.map((r) => r[f.name]));
  });

  it('never leave a required field empty, and leave optional ones empty on every fifth row', () => {
    for (const f of stockIn.form.fields.filter((x) => x.required && !x.showRelation && !x.requiredRelation))
      for (const r of rows) expect(r[f.name], f.name).not.toBeNull();
    const optional = stockIn.form.fields.find(
      (x) => !x.required && !x.showRelation && !x.requiredRelation && x.name !== stockIn.form.dialog.key,
    );
    expect(optional).toBeDefined();
    expect(rows[4]?.[optional?.name as string]).toBeNull();
  });

  it('hold decimals with their precision, dictionary values the dictionary has, and picked records by id', () => {
    for (const f of stockIn.form.fields) {
      const values = rows.map((r) => r[f.name]).filter((v) => v !== null && v !== undefined);
      if (f.kind === 'decimal' && f.decimals !== undefined)
        for (const v of values) expect(String(v).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(f.decimals);
      if (f.kind === 'dict') for (const v of values) expect(sampleDict(f.dict as string, f.label).map((e) => e.value)).toContain(v);
      if (f.kind === 'remote') for (const v of values) expect(REFERENCE_IDS).toContain(String(v));
    }
  });

  it('meet every relation rule on even rows and not on odd rows', () => {
    const model = demo('15-disposal-inquiry.json');
    const triggers = model.form.fields.filter((f) => f.showRelation || f.requiredRelation);
    expect(triggers.length).toBeGreaterThan(0);
    const r = sampleRows(model);
    for (const f of triggers) {
      const value = (f.showRelation ?? f.requiredRelation)?.value;
      expect(String(r[0]?.[f.name])).toBe(value);
      expect(String(r[1]?.[f.name])).not.toBe(value);
    }
  });
});

describe('sample data views and regions', () => {
  it('name a district from its province down, as the server does', () => {
    expect(cityLabels('330106')).toBe('浙江省/杭州市/西湖区');
  });

  it('answer a data view with the columns its charts name', () => {
    const screen = {
      kind: 'bigScreen',
      layout: [
        {
          charts: [{ kind: 'lineBar', dataViewId: 7, options: { xAxisData: '月份', yAxisData_bar: ['处置量'], yAxisData_line: '订单数' } }],
        },
      ],
    } as unknown as Parameters<typeof sampleDataView>[0];
    const answer = sampleDataView(screen, 7);
    expect(answer.columns).toEqual(['月份', '处置量', '订单数']);
    expect(answer.list).toHaveLength(12);
    expect(answer.list[0]?.月份).toBe('1月');
    expect(sampleDataView(screen, 7)).toEqual(answer);
  });
});
