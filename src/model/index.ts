/** The page model shared by the CLI and the app: parse, normalise, hash and validate definitions. */
export * from './canonical.js';
export * from './coerce.js';
export * from './dates.js';
export * from './menu.js';
export * from './names.js';
export { CONFIGURE_BOOLEAN_KEYS, CONFIGURE_NUMBER_KEYS, configureWords, KNOWN_TEMPLATE, keysOfKind } from './normalize/keys.js';
export { CANVAS_DEFAULTS } from './normalize/screens.js';
export * from './normalize.js';
export * from './order.js';
export * from './parse.js';
export * from './pattern-text.js';
export * from './permissions.js';
export * from './problems.js';
export * from './routes.js';
export * from './schema.js';
export * from './screen-views.js';
export type * from './types.js';
export * from './validators.js';
