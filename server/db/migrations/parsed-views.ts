import { type DefinitionRow, readView, type ViewModel } from '../../lowcode/view-model.js';

/** The designed views of these definition rows, in order; a definition that no longer parses is passed over. */
export function parsedViews(rows: DefinitionRow[]): ViewModel[] {
  const out: ViewModel[] = [];
  for (const row of rows) {
    try {
      const view = readView(row);
      if (view) out.push(view);
    } catch {
      // left as it is
    }
  }
  return out;
}
