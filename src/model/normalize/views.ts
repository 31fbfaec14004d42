import { NUMBER_TEXT, readNumeric } from '../coerce.js';
import { FIELD_NAME } from '../names.js';
import { trimChar, viewCallPaths, viewPath } from '../routes.js';
import type { DialogModel, DividerModel, FieldModel, ListPageModel, SourceInfo } from '../types.js';
import type { WireTemplate, WireView } from '../wire.js';
import { buttonsOf } from './buttons.js';
import { checkReferences, normalizeColumn, normalizeField, readFieldList } from './fields.js';
import { compact, extraOf, KNOWN_BASIC, KNOWN_DIALOG, KNOWN_TEMPLATE } from './keys.js';
import { Sink } from './sink.js';

function dividersOf(template: WireTemplate, fields: FieldModel[], sink: Sink): DividerModel[] {
  const list = template.formDividerOption;
  if (!list) return [];
  const at = list.viaItems ? '/disTemplate/formDividerOption/items' : '/disTemplate/formDividerOption';
  const out: DividerModel[] = [];
  list.items.forEach((d, i) => {
    const pointer = `${at}/${i}/position`;
    let target: FieldModel | undefined;
    const pos = d.position;
    const n = readNumeric(pos);
    if (typeof pos === 'string' && !NUMBER_TEXT.test(pos)) target = fields.find((f) => f.name === pos.trim());
    else if (n.ok && n.value !== undefined && Number.isInteger(n.value)) target = fields[n.value];
    if (!target) {
      sink.add(
        'E_REFERENCE',
        pointer,
        `divider position ${JSON.stringify(pos)} is neither a form field's name nor an index below ${fields.length}`,
      );
      return;
    }
    out.push({ before: target.name, title: d.chName ?? '' });
  });
  return out;
}

/** The dialog of a form that sets nothing: 400px wide, labels 80px, inputs 250px, one field per line, keyed by id. */
function dialogOf(template: WireTemplate): DialogModel {
  const d = template.dialogOption ?? {};
  return compact({
    width: d.width ?? 400,
    labelWidth: d.labelWidth ?? 80,
    inputWidth: d.inputWidth ?? 250,
    inline: d.inline ?? false,
    key: d.key?.trim() || 'id',
    suffix: d.suffix,
    initGroovy: d.initGroovy ?? false,
  });
}

/** Unknown keys of the template, basicOption and dialogOption, by where they were found. */
function extraOfTemplate(template: WireTemplate): ListPageModel['extra'] {
  const found = compact({
    template: extraOf(template, KNOWN_TEMPLATE),
    basicOption: template.basicOption ? extraOf(template.basicOption, KNOWN_BASIC) : undefined,
    dialogOption: template.dialogOption ? extraOf(template.dialogOption, KNOWN_DIALOG) : undefined,
  });
  return Object.keys(found).length ? found : undefined;
}

export function normalizeViewTemplate(view: WireView, template: WireTemplate, source: SourceInfo, sink: Sink): ListPageModel | undefined {
  const id = view.id as number;
  const componentName = view.disMenu?.componentName?.trim();
  if (!componentName) {
    sink.add('E_REQUIRED', '/disMenu/componentName', 'a view needs disMenu.componentName: it is the permission prefix and the route name');
    return undefined;
  }
  if (!FIELD_NAME.test(componentName))
    sink.add('E_NAME', '/disMenu/componentName', `componentName ${JSON.stringify(componentName)} is not an identifier`);
  const tableReads = readFieldList(template.tableOption, '/disTemplate/tableOption', sink);
  const formReads = template.formOption ? readFieldList(template.formOption, '/disTemplate/formOption', sink) : tableReads;
  // Without formOption the form is made of tableOption's fields: the form's checks are the ones to
  // report, and the column's (show, decimals) would only repeat them at the same pointers.
  const columns = tableReads.map((f) => normalizeColumn(f, template.formOption ? sink : new Sink(sink.file)));
  const fields = formReads.map((f) => normalizeField(f, sink));
  checkReferences(fields, formReads, sink);
  const basic = template.basicOption ?? {};
  const names = new Set([...columns.map((c) => c.name), ...fields.map((f) => f.name)]);
  let sortField = basic.sortName?.trim() || 'id';
  if (!names.has(sortField) && sortField !== 'id' && sortField !== 'createTime') {
    sink.add(
      'E_REFERENCE',
      '/disTemplate/basicOption/sortName',
      `default sort field ${JSON.stringify(sortField)} is not a field of this view`,
    );
    sortField = 'id';
  }
  const dialog = template.dialogOption ?? {};
  const calls = viewCallPaths(id);
  const exportBase = (dialog.export && trimChar(dialog.export, '/', 'end')) || calls.export;
  return compact({
    kind: 'list' as const,
    viewId: id,
    title: view.name?.trim() || view.disMenu?.name?.trim() || componentName,
    componentName,
    path: viewPath(componentName, id),
    source,
    permissions: {
      list: `${componentName}:list`,
      add: `${componentName}:add`,
      edit: `${componentName}:edit`,
      del: `${componentName}:del`,
      look: `${componentName}:look`,
      pre: `${componentName}:pre`,
    },
    features: {
      add: basic.add ?? false,
      edit: basic.edit ?? false,
      del: basic.del ?? false,
      look: basic.look ?? false,
      export: basic.download ?? false,
      import: basic.import ?? false,
      template: basic.template ?? false,
      index: basic.orderNumber ?? false,
      operation: basic.operation ?? false,
    },
    operationWidth: basic.operationWidth,
    defaultSort: { field: sortField, order: basic.sortType ?? 'desc' },
    api: compact({
      list: calls.list,
      detail: dialog.detailUrl || calls.detail,
      add: calls.add,
      edit: calls.edit,
      del: calls.del,
      submit: dialog.submitUrl || undefined,
      export: `${exportBase}/download`,
      import: basic.importSubmitUrl || calls.import,
      template: calls.template,
      groovy: calls.groovy,
      preAdd: calls.preAdd,
    }),
    columns,
    form: { fields, dividers: dividersOf(template, fields, sink), dialog: dialogOf(template) },
    buttons: buttonsOf(template, names, sink),
    extra: extraOfTemplate(template),
  });
}
