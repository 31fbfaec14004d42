// The source of src/contract/bare.gen.ts: every call of the contract without its shapes (method,
// address, how its body and answer travel), typed by its declaration. App code that must not load zod
// (the login route's initial JS) calls through these; everything else uses the declarations.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CallSpec, type ResourceSpec, wireOf } from '../src/contract/define.js';

export const BARE_PATH = 'src/contract/bare.gen.ts';

/** The contract's resources by file and export name, in file order. */
async function resourcesOf(dir: string): Promise<{ file: string; name: string; spec: ResourceSpec }[]> {
  const out: { file: string; name: string; spec: ResourceSpec }[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts') || f.endsWith('.gen.ts')) continue;
    const names = [...readFileSync(join(dir, f), 'utf8').matchAll(/^export const (\w+) = resource\(/gm)].map((m) => m[1] as string);
    if (names.length === 0) continue;
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as Record<string, ResourceSpec>;
    for (const name of names) out.push({ file: f.replace(/\.ts$/, ''), name, spec: mod[name] as ResourceSpec });
  }
  return out;
}

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function bareCall(c: CallSpec): string {
  const w = wireOf(c);
  const parts = [`method: ${q(w.method)}`, `path: ${q(w.path)}`];
  if (w.form) parts.push('form: true');
  if (w.file) parts.push('file: true');
  if (w.multipart) parts.push('multipart: true');
  return `{ ${parts.join(', ')} }`;
}

export async function bareSource(root: string): Promise<string> {
  const resources = await resourcesOf(join(root, 'src/contract'));
  const lines = [
    '// Written by `npm run docs:openapi` from the contract (src/contract/<resource>.ts); do not edit.',
    '// Each call without its shapes, typed by its declaration, for app code that loads no zod.',
    "import type { BareCall } from './define';",
    ...resources.map((r) => `import type { ${r.name} as ${r.name}$ } from './${r.file}';`),
    '',
  ];
  // One line per resource: a table to read by its resource, not code to review line by line.
  for (const r of resources) {
    const calls = Object.entries(r.spec.calls).map(([id, c]) => `${id}: ${bareCall(c)} as BareCall<(typeof ${r.name}$)['calls']['${id}']>`);
    lines.push(`export const ${r.name} = { ${calls.join(', ')} } as const;`);
  }
  return `${lines.join('\n')}\n`;
}
