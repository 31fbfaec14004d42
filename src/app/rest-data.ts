/**
 * The list sources of the pages that are not views: the administration lists (users, roles,
 * dictionaries, applications, data views, screens, the operation log) count pages from 0, messages
 * from 1. Nothing else settles a page base.
 */
import type { CallSpec, ResourceSpec } from '../contract/define';
import type { ListSource } from '../engine';
import { api, http } from '../request';
import { type ContractList, createContractProvider, createRestProvider, type RestResource } from './data-provider';

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

const contractData = { 0: createContractProvider(api, 0), 1: createContractProvider(api, 1) };

/**
 * A list of a contract's resource: its `list` call, paged from the resource's page base, and its
 * `remove` call. Build it once per page module.
 */
export function contractSource<R extends ResourceSpec>(
  r: R,
  list: keyof R['calls'] & string,
  remove?: keyof R['calls'] & string,
): ListSource<ContractList> {
  return {
    resource: { list: r.calls[list] as CallSpec, remove: remove === undefined ? undefined : (r.calls[remove] as CallSpec) },
    dataProvider: contractData[r.pageBase],
  };
}
