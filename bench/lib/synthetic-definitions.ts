/**
 * Synthetic view definitions for the benchmarks: views of `fields` fields (20 by default) mixing the
 * field kinds, with dividers, a relation and custom buttons, as `wastegen pull` would write them, and
 * the first `columns` fields (12 by default) as table columns.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src/model/canonical.js';

const KINDS = [
  { dataType: 'varchar', configure: { required: true, search: true, sortable: true } },
  { dataType: 'varchar', configure: { dict: 'wasteCategory', tags: true, search: true } },
  { dataType: 'decimal', configure: { required: true, min: 0, max: 1000, decimals: 3, unit: '吨' } },
  { dataType: 'long', configure: { min: 1 } },
  { dataType: 'datetime', configure: { timeFmt: 'yyyy-MM-dd hh:mm:ss', sortable: true } },
  { dataType: 'varchar', configure: { textarea: true, rows: 3 } },
  { dataType: 'varchar', configure: { city: true } },
  {
    dataType: 'varchar',
    configure: {
      sportData: true,
      sportData_type: 'list',
      sportData_url: '/api/company/list',
      sportData_params: [{ key: 'type', type: 1, value: '2' }],
    },
  },
  { dataType: 'varchar', configure: { file: 'image', fileType: ['jpg', 'png'], fileSize: 3 } },
  { dataType: 'varchar', configure: { validator: 'mobile' } },
];

export const syntheticComponentName = (id: number) => `synthetic${id}`;

/** Which field kind the synthetic field `field{i}` has (its dataType and configure keys). */
export const syntheticKindOf = (i: number) => KINDS[i % KINDS.length] as (typeof KINDS)[number];

export function syntheticView(id: number, fields = 20, columns = 12): Record<string, unknown> {
  const formOption = Array.from({ length: fields }, (_, i) => {
    const kind = KINDS[i % KINDS.length] as (typeof KINDS)[number];
    return {
      name: `field${i}`,
      chName: `字段${i}（${id}）`,
      dataType: kind.dataType,
      linked: false,
      configure: { sort: i + 1, show: i === fields - 1 ? 3 : 1, width: 120 + i, ...kind.configure },
    };
  });
  formOption[1]?.configure && Object.assign(formOption[1].configure, { showRelation: { item: ['field2'], value: 'HW08' } });
  return {
    id,
    name: `合成视图 ${id}`,
    menuId: 10_000 + id,
    status: 1,
    disMenu: { componentName: syntheticComponentName(id), name: `合成视图 ${id}` },
    disTemplate: {
      basicOption: {
        add: true,
        edit: true,
        del: true,
        look: true,
        download: true,
        orderNumber: true,
        operation: true,
        operationWidth: 240,
      },
      tableOption: formOption.slice(0, columns).map((f) => ({ ...f, configure: { ...f.configure, show: true } })),
      formOption,
      dialogOption: { width: '60%', labelWidth: 110, inline: true },
      formDividerOption: [
        { position: 'field0', chName: '基本信息' },
        { position: 10, chName: '其他' },
      ],
      btnDIYOption: [
        {
          name: 'audit',
          chName: '审核',
          configure: { position: 'opt', action: 'groovy', groovyAction: 'audit', confirm: true, root: ['admin'] },
        },
        {
          name: 'export',
          chName: '导出所选',
          configure: {
            position: 'fun',
            action: 'submit',
            submitType: 'download',
            submitUrl: `/api/general/export/${id}/download`,
            multiple: true,
          },
        },
      ],
    },
  };
}

/** The decoded disTemplate of a synthetic view, as the back office's designer saves it. */
export const syntheticTemplate = (id: number, fields = 20, columns = 12) =>
  syntheticView(id, fields, columns).disTemplate as Record<string, unknown>;

/** Writes `count` synthetic views into `<root>/definitions/views`, key-sorted like pull does. */
export function writeSyntheticProject(root: string, count: number): void {
  const dir = join(root, 'definitions/views');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, 'definitions/screens'), { recursive: true });
  for (let i = 1; i <= count; i++) {
    const id = 1000 + i;
    writeFileSync(join(dir, `${id}-synthetic${id}.json`), `${canonicalJson(syntheticView(id), 2)}\n`);
  }
}
