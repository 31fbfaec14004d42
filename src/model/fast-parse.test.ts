import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FAILED, fastReader } from './fast-parse.js';
import { wireScreen, wireView } from './wire.js';

const ROOT = join(import.meta.dirname, '../..');

/** The first place where two parsed values differ: key order, keys holding undefined and list holes count. */
function difference(a: unknown, b: unknown, at = ''): string | undefined {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${at}: list against ${JSON.stringify(b)}`;
    for (let i = 0; i < a.length; i++) {
      if (i in a !== i in b) return `${at}/${i}: hole`;
      const d = difference(a[i], b[i], `${at}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a).join(',');
    const kb = Object.keys(b).join(',');
    if (ka !== kb) return `${at}: keys ${ka} against ${kb}`;
    for (const k of Object.keys(a)) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${at}: ${String(a)} against ${String(b)}`;
}

/** What the fast reader says against what zod says: the same value, or both a failure. */
function disagreement(schema: z.ZodType, input: unknown): string | undefined {
  const read = fastReader(schema);
  if (!read) return 'no fast reader';
  const fast = read(structuredClone(input));
  const slow = schema.safeParse(structuredClone(input));
  if (!slow.success) return fast === FAILED ? undefined : `zod fails (${slow.error.issues[0]?.message}), the fast reader does not`;
  if (fast === FAILED) return 'the fast reader fails, zod does not';
  return difference(fast, slow.data);
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path));
    else if (name.endsWith('.json') && /\/(views|screens)\//.test(path)) out.push(path);
  }
  return out;
}

const definitionFiles = [...jsonFiles(join(ROOT, 'definitions')), ...jsonFiles(join(ROOT, 'tests/fixtures'))];
const schemaOf = (file: string) => (file.includes('/screens/') ? wireScreen : wireView);
const parsedFiles = definitionFiles.flatMap((file) => {
  try {
    return [{ file, json: JSON.parse(readFileSync(file, 'utf8')) as unknown }];
  } catch {
    return [];
  }
});

/** Values that servers of this family send, good and bad, for any place in a definition. */
const oddValue = fc.constantFrom<unknown>(
  '',
  null,
  0,
  1,
  -2.5,
  Number.MAX_SAFE_INTEGER,
  '1',
  '0',
  'true',
  'false',
  'yes',
  ' 12 ',
  '250px',
  '60%',
  'a,b, c',
  'left',
  'LEFT',
  '{"items":[]}',
  '{"basicOption":{"add":"1"}}',
  '{not json',
  '[]',
  [],
  [1, 2],
  ['a', ''],
  {},
  { items: [] },
  { items: '' },
  { items: [{ name: 'x' }] },
  { enabled: '1', top: '3' },
  true,
  false,
  { name: 'f', chName: '字段', configure: { search: '1', width: '120px' } },
  '12,13',
  '12,x',
);

type Path = (string | number)[];

/** Every path inside a value, the value itself included. */
function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) pathsOf(v[i], [...at, i], out);
  } else if (typeof v === 'object' && v !== null)
    for (const k of Object.keys(v)) pathsOf((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

/** A copy of `root` with the value at `path` replaced, removed (undefined) or given a sibling key. */
function mutated(root: unknown, path: Path, how: 'set' | 'delete' | 'extra', value: unknown): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return how === 'set' ? value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (how === 'set') parent[last] = value;
  else if (how === 'delete') delete parent[last];
  else if (!Array.isArray(parent)) parent[`extra_${String(last)}`] = value;
  return copy;
}

describe('fast reader of the wire schemas', () => {
  it('has a fast reader for views and screens, and none for a schema it cannot run', () => {
    expect(fastReader(wireView)).toBeTypeOf('function');
    expect(fastReader(wireScreen)).toBeTypeOf('function');
    expect(fastReader(z.object({ a: z.string() }))).toBeUndefined();
    expect(fastReader(z.looseObject({ a: z.string().min(1) }))).toBeUndefined();
    expect(fastReader(z.looseObject({ a: z.string().default('x') }))).toBeUndefined();
    const tree = z.looseObject({
      name: z.string(),
      get children() {
        return z.array(tree);
      },
    });
    expect(fastReader(tree)).toBeUndefined();
  });

  it('reads every definition of the project and of the fixtures as zod does', () => {
    expect(parsedFiles.length).toBeGreaterThan(20);
    for (const { file, json } of parsedFiles) expect(disagreement(schemaOf(file), json), file).toBeUndefined();
  });

  it('agrees with zod on definitions changed at random places, valid or not', () => {
    const cases = parsedFiles.map(({ file, json }) => ({ schema: schemaOf(file), json, paths: pathsOf(json) }));
    fc.assert(
      fc.property(
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('set', 'delete', 'extra') as fc.Arbitrary<'set' | 'delete' | 'extra'>, oddValue), {
          minLength: 1,
          maxLength: 4,
        }),
        (pick, changes) => {
          const c = cases[pick % cases.length] as (typeof cases)[number];
          let json = c.json;
          for (const [n, how, value] of changes) {
            const paths = pathsOf(json);
            json = mutated(json, paths[n % paths.length] as Path, how, value);
          }
          expect(disagreement(c.schema, json)).toBeUndefined();
        },
      ),
      { numRuns: 3000, seed: 20261130 },
    );
    // 3,000 comparisons with zod take seconds, more on a machine busy with other work.
  }, 60_000);

  it('keeps unknown keys after the named ones, leaves __proto__ out, and fails where zod fails', () => {
    const json = JSON.parse(
      '{"zz":1,"__proto__":{"polluted":true},"id":"7","name":"","disTemplate":"{\\"tableOption\\":{\\"items\\":\\"\\"},\\"basicOption\\":{\\"add\\":1,\\"x\\":[1]}}"}',
    );
    expect(disagreement(wireView, json)).toBeUndefined();
    const read = fastReader(wireView);
    const out = read?.(json) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['id', 'name', 'disTemplate', 'zz']);
    expect(Object.hasOwn(out, '__proto__')).toBe(false);
    expect(read?.({ id: 'seven' })).toBe(FAILED);
    expect(read?.([])).toBe(FAILED);
    expect(
      disagreement(wireScreen, { disTemplate: { baseView: '12,13', layout: [{ chart: '', container: { super: { absolute: '1' } } }] } }),
    ).toBeUndefined();
    expect(disagreement(wireScreen, { disTemplate: { baseView: '12,x' } })).toBeUndefined();
  });
});
