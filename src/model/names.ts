/** Names derived from definitions: file slugs, identifiers and route paths, decided here only. */

/** `stockIn` → `stock-in`; anything that is not a Latin letter or digit becomes a separator. */
export function kebabCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

/** `stock-in` / `stockIn` → `StockIn`; a leading digit gets a `V` so that the result is an identifier. */
export function pascalCase(text: string): string {
  const p = kebabCase(text)
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');
  return /^[0-9]/.test(p) ? `V${p}` : p;
}

const SCREEN_SLUGS: Record<number, string> = { 1: 'list-preview', 2: 'big-screen', 3: 'form-preview', 4: 'container' };

export function viewSlug(componentName: string | undefined): string {
  return (componentName && kebabCase(componentName)) || 'view';
}

/** Screens' menu names are usually `vBuild{id}`, which says nothing; the type does. */
export function screenSlug(componentName: string | undefined, type: number | undefined): string {
  const named = componentName && !/^v-?build-?\d*$/i.test(componentName) ? kebabCase(componentName) : '';
  return named || SCREEN_SLUGS[type ?? 0] || 'screen';
}

export const viewFileName = (id: number, componentName: string | undefined) => `${id}-${viewSlug(componentName)}.json`;
export const screenFileName = (id: number, componentName: string | undefined, type: number | undefined) =>
  `${id}-${screenSlug(componentName, type)}.json`;

/** lowcode-engine.md §2: list pages live at /dev-tools/temp/page/{name}/{viewId}. */
export const viewPath = (componentName: string, id: number) => `/dev-tools/temp/page/${componentName}/${id}`;

/** Screens render at /{anything}/vBuild/temp/{screenId}; the generated route is the prefix-free form. */
export const screenPath = (id: number) => `/vBuild/temp/${id}`;

/** A field name a generated schema and the reference server's table can both use. */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
