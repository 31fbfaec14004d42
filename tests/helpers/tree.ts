/** Every node id of a tree answer (`{ id, children? }` nodes), depth first. */
export function treeIds(nodes: readonly { id: number; children?: unknown[] }[]): number[] {
  const ids: number[] = [];
  const walk = (list: readonly { id: number; children?: unknown[] }[]) => {
    for (const n of list) {
      ids.push(n.id);
      if (n.children) walk(n.children as typeof list);
    }
  };
  walk(nodes);
  return ids;
}
