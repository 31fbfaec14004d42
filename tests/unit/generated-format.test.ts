import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Generated code is formatted: the project's formatter (Biome, with the project's settings) leaves
 * every golden output and the committed generated/ byte for byte as it is.
 */
const ROOT = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'wastegen-format-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('generated code is already formatted', () => {
  it('biome format finds nothing to change', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
    delete config.$schema;
    config.files = { includes: ['**'] };
    writeFileSync(join(work, 'biome.json'), JSON.stringify(config));
    const fixtures = join(ROOT, 'tests/fixtures');
    const dirs: string[] = [];
    for (const scenario of readdirSync(fixtures)) {
      if (!existsSync(join(fixtures, scenario, 'expected'))) continue; // error scenarios produce nothing
      cpSync(join(fixtures, scenario, 'expected'), join(work, scenario), { recursive: true });
      dirs.push(scenario);
    }
    cpSync(join(ROOT, 'generated'), join(work, 'generated'), { recursive: true });
    dirs.push('generated');
    expect(dirs.length).toBeGreaterThan(5);
    const biome = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');
    const r = spawnSync(process.execPath, [biome, 'format', ...dirs], { cwd: work, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/would have printed|Formatter would have/);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
});
