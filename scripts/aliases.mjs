// Module aliases that generated pages import the model and the engine through, so that generated/
// (and the golden fixtures' expected output) does not depend on where it sits in the tree.
// tsconfig.json "paths" says the same for tsc and tsx.
import { fileURLToPath } from 'node:url';

export const aliases = {
  '@wastegen/model': fileURLToPath(new URL('../src/model/index.ts', import.meta.url)),
  '@wastegen/engine': fileURLToPath(new URL('../src/engine/index.ts', import.meta.url)),
};
