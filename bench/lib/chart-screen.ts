import type { BenchApp } from './app-browser.js';

/** One chart of a benchmark screen: its kind, the SQL of its data view, and its private settings. */
export interface ChartSpec {
  kind: string;
  sql: string;
  settings: Record<string, unknown>;
}

/**
 * Creates a data view per chart (named `${name} 1`, `${name} 2`…) and returns the layout of a screen
 * that shows them four to a row, 6 × 12 cells each, one chart per container bound to its data view.
 */
export async function chartGridLayout(admin: BenchApp['admin'], specs: readonly ChartSpec[], name: string): Promise<unknown[]> {
  const layout = [];
  for (const [i, spec] of specs.entries()) {
    const view = await admin.post('/api/data/add', { name: `${name} ${i + 1}`, sql: spec.sql });
    if (view.status !== 200) throw new Error(`data view ${i + 1}: ${view.status} ${JSON.stringify(view.body)}`);
    layout.push({
      i: `c${i}`,
      x: (i % 4) * 6,
      y: Math.floor(i / 4) * 12,
      w: 6,
      h: 12,
      container: { header: { showTitle: true, content: `${spec.kind} ${i + 1}` } },
      chart: [
        {
          fileName: spec.kind,
          chartIndex: 0,
          flexSize: 1,
          configure: { common: { colorModel: 'gradient' }, private: { ...spec.settings, dataViewId: view.body.id } },
        },
      ],
    });
  }
  return layout;
}
