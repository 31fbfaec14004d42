/**
 * The list sources of the pages that are not views: the administration lists (users, roles,
 * dictionaries, applications, data views, screens, the operation log) count pages from 0, messages
 * from 1. Nothing else settles a page base.
 */
import type { ListSource } from '../engine';
import { http } from '../request';
import { createRestProvider, type RestResource } from './data-provider';

const adminData = createRestProvider(http, 0);
const messageData = createRestProvider(http, 1);

/** An administration list: `list` paged from 0, deleted by `del`. Build it once per page module. */
export function adminSource(list: string, del?: RestResource['del']): ListSource<RestResource> {
  return { resource: { list, del }, dataProvider: adminData };
}

/** A message list: `list` paged from 1, deleted by `del`. */
export function messageSource(list: string, del?: RestResource['del']): ListSource<RestResource> {
  return { resource: { list, del }, dataProvider: messageData };
}
