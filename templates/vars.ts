/**
 * The templates (templates/*.hbs) and the variables each one receives, with their kinds. A project
 * may override any template with a file of the same name in its `templatesDir`; it gets the same
 * variables.
 *
 * Kinds, and how a template may place them:
 * - `text`: a definition's text (a title, a path). Only through `{{comment x}}` (inside a comment)
 *   or `{{literal x}}` (a quoted string literal). Placed as it is, it is an error.
 * - `identifier`: a TypeScript name derived from a definition. Only through `{{identifier x}}`
 *   (or `{{braces (identifier x)}}` for a JSX expression `{x}`).
 * - `number`: an id. As it is, or through `{{literal x}}`.
 * - `code`: TypeScript the generator printed and escaped (a model literal, a schema call). As it is.
 * - `codeList`: a list of such code, for `{{#each x}}{{this}}{{/each}}`.
 */
export const TEMPLATE_VARS = {
  banner: { source: 'text' },
  'view-schema': { source: 'text', title: 'text', viewId: 'number', schemaName: 'identifier', recordType: 'identifier', schema: 'code' },
  'view-page': {
    source: 'text',
    title: 'text',
    viewId: 'number',
    modelName: 'identifier',
    componentName: 'identifier',
    schemaName: 'identifier',
    recordType: 'identifier',
    model: 'code',
  },
  'screen-page': {
    source: 'text',
    title: 'text',
    screenId: 'number',
    engineComponent: 'code',
    modelType: 'code',
    modelName: 'identifier',
    componentName: 'identifier',
    model: 'code',
  },
  'big-screen-config': { source: 'text', title: 'text', screenId: 'number', configName: 'identifier', config: 'code' },
  'big-screen-page': { source: 'text', configName: 'identifier', componentName: 'identifier' },
  routes: { source: 'text', entries: 'codeList' },
} as const;

export type TemplateName = keyof typeof TEMPLATE_VARS;
export type VarKind = 'text' | 'identifier' | 'number' | 'code' | 'codeList';

interface KindTypes {
  text: string;
  identifier: string;
  number: number;
  code: string;
  codeList: readonly string[];
}

/** The variables of a template, typed: `TemplateVars<'view-page'>` is `{ source: string; viewId: number; … }`. */
export type TemplateVars<N extends TemplateName> = {
  -readonly [K in keyof (typeof TEMPLATE_VARS)[N]]: KindTypes[(typeof TEMPLATE_VARS)[N][K] & VarKind];
};

/** Partials every template may include (`{{> banner}}`); they see the including template's variables. */
export const PARTIALS: readonly TemplateName[] = ['banner'];
