import { isAbsent } from '../coerce.js';
import { sortByKeys } from '../order.js';
import type { ButtonModel } from '../types.js';
import { isOpenableUrl, urlScheme } from '../urls.js';
import type { WireButton, WireTemplate } from '../wire.js';
import { compact, extraOf, KNOWN_BUTTON } from './keys.js';
import type { Sink } from './sink.js';

const BUTTON_NEEDS: Record<ButtonModel['action'], keyof NonNullable<WireButton['configure']> | undefined> = {
  submit: 'submitUrl',
  groovy: undefined,
  dialog: 'view',
  view: 'view',
  website: 'websiteUrl',
  system: 'websiteUrl',
};

/** Actions that open a linked record (linkField). */
const LINKS: ReadonlySet<string> = new Set(['dialog', 'view', 'system']);

/** A view's custom buttons, checked and ordered by configure.sort. */
export function buttonsOf(template: WireTemplate, columnNames: Set<string>, sink: Sink): ButtonModel[] {
  const list = template.btnDIYOption;
  if (!list) return [];
  const at = list.viaItems ? '/disTemplate/btnDIYOption/items' : '/disTemplate/btnDIYOption';
  const seen = new Map<string, string>();
  const read: { b: ButtonModel; sort: number | undefined }[] = [];
  list.items.forEach((raw, i) => {
    const pointer = `${at}/${i}`;
    const c = raw.configure ?? {};
    const name = raw.name?.trim() || `button${i + 1}`;
    const position = c.position === 'fun' ? ('toolbar' as const) : ('row' as const);
    const dup = seen.get(`${position}:${name}`);
    if (dup) sink.add('E_DUPLICATE', `${pointer}/name`, `button ${JSON.stringify(name)} is already defined at ${dup}`);
    seen.set(`${position}:${name}`, pointer);
    if (!c.action) {
      sink.add('E_REQUIRED', `${pointer}/configure/action`, 'a button needs an action (submit, groovy, dialog, view, website or system)');
      return;
    }
    const need = BUTTON_NEEDS[c.action];
    if (need && isAbsent(c[need])) sink.add('E_REQUIRED', `${pointer}/configure/${need}`, `a ${c.action} button needs ${need}`);
    if (c.websiteUrl && !isOpenableUrl(c.websiteUrl))
      sink.add(
        'E_URL',
        `${pointer}/configure/websiteUrl`,
        `the app does not open ${urlScheme(c.websiteUrl)}: addresses; websiteUrl must be an http, https, mailto or tel address, or a path of the app`,
      );
    if (c.showRelation_item && !columnNames.has(c.showRelation_item))
      sink.add(
        'W_REFERENCE',
        `${pointer}/configure/showRelation_item`,
        `rows are matched on ${JSON.stringify(c.showRelation_item)}, which is not a field of this view`,
      );
    if (c.linkField && !columnNames.has(c.linkField))
      sink.add(
        'W_REFERENCE',
        `${pointer}/configure/linkField`,
        `the linked record is read from ${JSON.stringify(c.linkField)}, which is not a field of this view`,
      );
    if (c.linkField && c.action && !LINKS.has(c.action))
      sink.add(
        'W_REFERENCE',
        `${pointer}/configure/linkField`,
        `a ${c.action} button opens no linked record: linkField applies to dialog, view and system`,
      );
    const b: ButtonModel = compact({
      name,
      label: raw.chName?.trim() || name,
      position,
      action: c.action,
      submitType: c.action === 'submit' ? (c.submitType ?? 'post') : undefined,
      submitUrl: c.submitUrl,
      groovyAction: c.groovyAction,
      view: c.view,
      foreignKey: c.foreignKey,
      linkField: c.linkField,
      websiteUrl: c.websiteUrl,
      confirm: c.confirm ?? false,
      multiple: c.multiple ?? false,
      roles: [...new Set([...(c.root ?? []), ...(c.rootDIY ?? [])])],
      showWhen: c.showRelation_item ? { field: c.showRelation_item, value: c.showRelation_value ?? '' } : undefined,
      extra: extraOf(c, KNOWN_BUTTON),
    });
    read.push({ b, sort: c.sort });
  });
  return sortByKeys(read, (r) => r.sort).map((r) => r.b);
}
