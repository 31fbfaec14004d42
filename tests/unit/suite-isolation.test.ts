import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKS_MODULES } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe('unit files that share their modules', () => {
  it('are the ones that replace no module: every file calling vi.mock is listed to run isolated', () => {
    const mocking = ['tests/unit', 'src', 'cli']
      .flatMap(testFiles)
      .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(ROOT, f), 'utf8')))
      .sort();
    expect(mocking).toEqual([...MOCKS_MODULES].sort());
  });
});
