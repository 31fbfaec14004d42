/** The page model shared by the CLI and the app: parse, normalise, hash and validate definitions. */
export * from './canonical.js';
export * from './coerce.js';
export * from './dates.js';
export * from './names.js';
export * from './normalize.js';
export * from './order.js';
export * from './parse.js';
export * from './problems.js';
export * from './schema.js';
export type * from './types.js';
export * from './validators.js';
