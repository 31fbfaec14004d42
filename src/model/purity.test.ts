import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The model runs alike in the browser, the CLI and the server: it imports only itself, zod and the hash functions. */
const ROOT = import.meta.dirname;
const PACKAGES = ['zod', '@noble/hashes/sha2', '@noble/hashes/utils'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

describe('src/model stays pure', () => {
  it('imports nothing outside src/model but zod and the hash functions', () => {
    const outside: string[] = [];
    const files = sources(ROOT);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (spec === undefined) continue;
        const inside = spec.startsWith('.') && !relative(ROOT, resolve(dirname(file), spec)).startsWith('..');
        if (!inside && !PACKAGES.includes(spec)) outside.push(`${relative(ROOT, file)}: ${spec}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });
});
