/**
 * Synthetic view definitions for the CLI benchmarks: `fields` fields each (every data type, the
 * usual table and form keys), two buttons and the basic/dialog options, as the back office saves them.
 */

const TYPES = ['varchar', 'long', 'decimal', 'datetime'] as const;

export function syntheticTemplate(index: number, fields = 20): Record<string, unknown> {
  const list = Array.from({ length: fields }, (_, i) => {
    const dataType = TYPES[i % TYPES.length] as (typeof TYPES)[number];
    const configure: Record<string, unknown> = {
      sort: i + 1,
      show: 1,
      search: i < 3,
      sortable: i % 5 === 0,
      width: 100 + (i % 4) * 20,
      required: i % 3 === 0 ? 1 : 0,
    };
    if (dataType === 'decimal') Object.assign(configure, { decimals: 2, min: '0', unit: '吨' });
    if (dataType === 'long') Object.assign(configure, { min: 0, max: 100000 });
    if (dataType === 'datetime') configure.timeFmt = i % 8 === 3 ? 'yyyy-MM-dd' : 'yyyy-MM-dd hh:mm:ss';
    if (dataType === 'varchar' && i % 8 === 4) configure.validator = 'mobile';
    return { name: `field${String(i + 1).padStart(2, '0')}`, chName: `字段${index}-${i + 1}`, dataType, linked: false, configure };
  });
  return {
    basicOption: {
      add: true,
      edit: true,
      del: true,
      look: true,
      download: true,
      import: false,
      orderNumber: true,
      operation: true,
      operationWidth: 220,
      sortName: 'id',
      sortType: 'desc',
    },
    dialogOption: { width: '60%', labelWidth: 120, inline: true, key: 'id' },
    tableOption: list,
    formOption: list.map((f) => ({ ...f, configure: { ...f.configure, show: 1 } })),
    formDividerOption: [{ position: 0, chName: '基本信息' }],
    btnDIYOption: [
      {
        name: 'approve',
        chName: '审核',
        configure: {
          position: 'opt',
          action: 'submit',
          submitType: 'post',
          submitUrl: `/api/bench/${index}/approve`,
          confirm: true,
          sort: 1,
        },
      },
      {
        name: 'exportSelected',
        chName: '导出所选',
        configure: {
          position: 'fun',
          action: 'submit',
          submitType: 'download',
          submitUrl: `/api/bench/${index}/export`,
          multiple: true,
          sort: 2,
        },
      },
    ],
  };
}

export const syntheticComponentName = (index: number) => `benchView${index}`;
