import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { buildSchema, type ListPageModel, normalizeDefinition } from '../../src/model/index.js';
import { samplesFor } from '../helpers/validation-samples.js';

/**
 * The generated schema module and buildSchema() must be the same schema: the generated page uses the
 * first, the runtime renderer the second. Both run on the same samples and must give the same verdicts
 * and messages.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');

interface Case {
  scenario: string;
  dir: string;
  page: ListPageModel;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const scenario of readdirSync(FIXTURES).sort()) {
    const views = join(FIXTURES, scenario, 'expected/views');
    if (!existsSync(views)) continue;
    for (const dir of readdirSync(views).sort()) {
      const file = `definitions/views/${dir}.json`;
      const json = JSON.parse(readFileSync(join(FIXTURES, scenario, file), 'utf8'));
      const r = normalizeDefinition({ kind: 'view', file, json });
      if (r.page?.kind === 'list') out.push({ scenario, dir: join(views, dir), page: r.page });
    }
  }
  return out;
}

const verdict = (schema: ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, data: r.data } : { ok: false, issues: r.error.issues.map((i) => ({ path: i.path, message: i.message })) };
};

describe('generated schema module ≡ buildSchema', () => {
  const all = cases();

  it('covers the fixtures that have views', () => {
    expect(all.map((c) => c.scenario)).toEqual(expect.arrayContaining(['basic-view', 'hostile-labels', 'loose-strict']));
  });

  for (const c of all) {
    it(`${c.scenario}: ${c.page.componentName}`, async () => {
      const mod = await import(join(c.dir, 'schema.ts'));
      const generated = Object.values(mod).find((v) => typeof (v as ZodType)?.safeParse === 'function') as ZodType;
      const built = buildSchema(c.page.form) as unknown as ZodType;
      // One field at a time varies, the others hold a value that passes (or nothing).
      const fields = c.page.form.fields;
      const baseline: Record<string, unknown> = {};
      let compared = 0;
      for (const f of fields) {
        for (const sample of samplesFor(f)) {
          const input = { ...baseline, [f.name]: sample };
          expect(verdict(generated, input), `${f.name} = ${JSON.stringify(sample)}`).toEqual(verdict(built, input));
          compared++;
        }
      }
      // Relations: every trigger at its relation value and at another.
      for (const f of fields.filter((x) => x.showRelation || x.requiredRelation)) {
        for (const value of [f.showRelation?.value, f.requiredRelation?.value, 'other']) {
          const input = { [f.name]: value };
          expect(verdict(generated, input)).toEqual(verdict(built, input));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(fields.length);
    });
  }
});

describe('hostile labels', () => {
  it('give zero TypeScript diagnostics', () => {
    const dir = join(FIXTURES, 'hostile-labels/expected');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else files.push(join(d, e.name));
      }
    };
    walk(dir);
    const root = join(import.meta.dirname, '../..');
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('tsconfig.json does not parse');
    const program = ts.createProgram(files, { ...config.options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
