import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RANGE_DAYS, defaultRangeDays, hasCreateRange, reservedNameProblem } from './names.js';
import { normalizeDefinition } from './normalize.js';
import { buildSchema, submittedFields } from './schema.js';
import type { ListPageModel } from './types.js';

const FILE = 'definitions/views/9-system.json';

function page(tableOption: unknown[], formOption?: unknown[]) {
  const json = {
    id: 9,
    name: '系统列',
    status: 1,
    disMenu: { componentName: 'systemColumns', name: '系统列' },
    disTemplate: { tableOption, ...(formOption ? { formOption } : {}) },
  };
  return normalizeDefinition({ kind: 'view', file: FILE, json });
}

const field = (name: string, dataType: string, configure: Record<string, unknown> = {}) => ({ name, chName: name, dataType, configure });

describe('system columns as fields', () => {
  it('reads id, createTime, updateTime and createBy as the table columns: typed, read-only, never submitted', () => {
    const r = page(
      [
        field('id', 'long', { sortable: true, search: true }),
        field('title', 'varchar', { search: true }),
        field('createTime', 'varchar', { sortable: true, search: true }),
        field('updateTime', 'datetime'),
      ],
      [
        field('title', 'varchar', { required: true }),
        field('createBy', 'varchar', { show: 1, required: true }),
        field('id', 'long', { show: 2 }),
      ],
    );
    const model = r.page as ListPageModel;
    expect(r.problems.map((p) => [p.code, p.pointer])).toEqual([
      ['W_IGNORED', '/disTemplate/tableOption/2/dataType'],
      ['W_IGNORED', '/disTemplate/formOption/1/configure/required'],
    ]);
    expect(model.columns.map((c) => [c.name, c.system, c.dataType, c.sortable, c.search, c.searchKind])).toEqual([
      ['id', 'id', 'long', true, true, 'number'],
      ['title', undefined, 'varchar', false, true, 'text'],
      ['createTime', 'createTime', 'datetime', true, true, 'date'],
      ['updateTime', 'updateTime', 'datetime', false, false, 'date'],
    ]);
    const byName = Object.fromEntries(model.form.fields.map((f) => [f.name, f]));
    expect(byName.createBy).toMatchObject({ system: 'createBy', show: 3, required: false });
    expect(byName.id).toMatchObject({ system: 'id', show: 4 });
    expect(submittedFields(model.form).map((f) => f.name)).toEqual(['title']);
    const parsed = buildSchema(model.form).safeParse({ title: 'x', createBy: 'intruder', id: 5 });
    expect(parsed.success && parsed.data).toEqual({ title: 'x' });
  });

  it('refuses the list call parameters and the snake-case column names with one message that says why', () => {
    const r = page([field('page', 'varchar'), field('create_time', 'datetime'), field('Sort', 'varchar'), field('CreateTime', 'datetime')]);
    expect(r.problems.map((p) => [p.code, p.pointer, p.message])).toEqual([
      ['E_NAME', '/disTemplate/tableOption/0/name', reservedNameProblem('page')],
      ['E_NAME', '/disTemplate/tableOption/1/name', reservedNameProblem('create_time')],
      ['E_NAME', '/disTemplate/tableOption/2/name', reservedNameProblem('Sort')],
      ['E_NAME', '/disTemplate/tableOption/3/name', reservedNameProblem('CreateTime')],
    ]);
    expect(reservedNameProblem('page')).toMatch(/reserved: the list call reads page as its own parameter/);
    expect(reservedNameProblem('create_time')).toMatch(/clashes with the system column create_time; declare it as "createTime"/);
    // The author's account id is kept by the server alone: a field of that name could write authorship.
    for (const hidden of ['create_user', 'Create_User']) {
      expect(reservedNameProblem(hidden)).toMatch(/clashes with the system column create_user, which the server keeps and no field shows/);
    }
    for (const ok of ['id', 'createTime', 'updateTime', 'createBy', 'pageNo', 'title']) expect(reservedNameProblem(ok)).toBeUndefined();
  });

  it("accepts a contract's beginTime and endTime, which then take the list's endTime from the createTime range", () => {
    const r = page(
      [
        field('contractNo', 'varchar', { search: true }),
        field('beginTime', 'datetime'),
        field('endTime', 'datetime', { search: true, sortable: true }),
      ],
      [
        field('contractNo', 'varchar'),
        field('beginTime', 'datetime', { timeFmt: 'yyyy-MM-dd' }),
        field('endTime', 'datetime', { timeFmt: 'yyyy-MM-dd' }),
      ],
    );
    expect(r.problems).toEqual([]);
    const model = r.page as ListPageModel;
    expect(model.columns.find((c) => c.name === 'endTime')).toMatchObject({ search: true, sortable: true, searchKind: 'date' });
    expect(model.form.fields.map((f) => f.name)).toEqual(['contractNo', 'beginTime', 'endTime']);
    expect(hasCreateRange(model.columns.map((c) => c.name))).toBe(false);
    expect(hasCreateRange(['startTime'])).toBe(false);
    expect(hasCreateRange(['beginTime', 'createTime', 'endDate'])).toBe(true);
    expect(reservedNameProblem('startTime')).toBeUndefined();
    expect(reservedNameProblem('endTime')).toBeUndefined();
    expect(reservedNameProblem('EndTime')).toMatch(/differs from the list call's endTime only in case; declare it as "endTime"/);
    expect(reservedNameProblem('token')).toMatch(
      /reserved: the list call reads token as its own parameter \(reserved: page, size, sort, timestamp, sign, token\)/,
    );
  });
});

describe('the default 创建时间 range', () => {
  const column = (name: string, search: boolean) => ({ name, search });

  it('starts 90 days back only where the search form offers 创建时间: a searchable createTime column', () => {
    const events = [column('stockNo', true), column('inTime', true), column('createTime', true)];
    expect(
      defaultRangeDays(
        events,
        events.map((c) => c.name),
      ),
    ).toBe(DEFAULT_RANGE_DAYS);
    expect(DEFAULT_RANGE_DAYS).toBe(90);
  });

  it('gives lists of things none, nor a list whose createTime is not searched', () => {
    const vehicles = [column('plateNo', true), column('vehicleStatus', true), column('annualDate', false)];
    expect(
      defaultRangeDays(
        vehicles,
        vehicles.map((c) => c.name),
      ),
    ).toBeNull();
    const shown = [column('title', true), column('createTime', false)];
    expect(
      defaultRangeDays(
        shown,
        shown.map((c) => c.name),
      ),
    ).toBeNull();
  });

  it('gives none to a list whose fields take startTime or endTime: it has no createTime range', () => {
    const contract = [column('createTime', true), column('endTime', true)];
    expect(
      defaultRangeDays(
        contract,
        contract.map((c) => c.name),
      ),
    ).toBeNull();
  });

  it('follows the seeded definitions: lists of events have it, lists of things do not', () => {
    const seeded = (file: string) => {
      const json = JSON.parse(readFileSync(new URL(`../../definitions/views/${file}.json`, import.meta.url), 'utf8'));
      const model = normalizeDefinition({ kind: 'view', file: `definitions/views/${file}.json`, json }).page as ListPageModel;
      return defaultRangeDays(model.columns, [...model.columns.map((c) => c.name), ...model.form.fields.map((f) => f.name)]);
    };
    for (const events of ['12-stock-in', '13-stock-out', '19-disposal-order', '20-logistics-order']) expect(seeded(events)).toBe(90);
    for (const things of ['14-warehouse', '16-contract', '17-vehicle', '15-disposal-inquiry', '18-leave-message'])
      expect(seeded(things)).toBeNull();
  });
});
