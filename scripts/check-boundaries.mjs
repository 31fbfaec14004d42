#!/usr/bin/env node
// The layers' import rules, checked on every .ts and .tsx file (static imports, `export … from`,
// `import type`, and dynamic `import()`):
//   src/model   imports nothing of ours outside src/model;
//   src/engine  imports only src/engine, src/model and src/shared of ours;
//   server/     imports nothing from src/ but src/model and src/shared;
//   generated/  imports only its own files, and the engine and the model through @wastegen/engine
//               and @wastegen/model.
// "Ours" is anything that resolves inside the project (relative paths, the @wastegen aliases);
// packages are not checked. Each crossing prints `file:line: <folder> may not import <target>`,
// and the exit code is 1 when there is any.
//
// Usage: node scripts/check-boundaries.mjs [root]   (root defaults to the project holding this script)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SKIP = new Set(['node_modules', 'dist']);
/** The folders that have rules; nothing else is read. */
const RULED = ['src/model', 'src/engine', 'server', 'generated'];
const ALIASES = { '@wastegen/model': 'src/model', '@wastegen/engine': 'src/engine' };

/** Project-relative path with forward slashes. */
const rel = (root, abs) => relative(root, abs).split(sep).join('/');
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`);

function* sourceFiles(root, dir = root) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(root, abs);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield abs;
  }
}

/** Where an import specifier points inside the project (relative path), or undefined for a package. */
function target(root, file, spec) {
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (spec === alias || spec.startsWith(`${alias}/`)) return { path: folder + spec.slice(alias.length), alias: true };
  }
  if (!spec.startsWith('.') && !spec.startsWith('/')) return undefined;
  const path = rel(root, resolve(dirname(file), spec));
  return path.startsWith('..') ? undefined : { path, alias: false };
}

/** The rule a file's folder sets: which targets of ours it may not import, and why it is checked. */
function ruleOf(path) {
  if (within(path, 'src/model')) return { folder: 'src/model', allowed: (t) => within(t.path, 'src/model') };
  if (within(path, 'src/engine'))
    return {
      folder: 'src/engine',
      allowed: (t) => ['src/engine', 'src/model', 'src/shared'].some((f) => within(t.path, f)),
    };
  if (within(path, 'server'))
    return {
      folder: 'server',
      allowed: (t) => !within(t.path, 'src') || within(t.path, 'src/model') || within(t.path, 'src/shared'),
    };
  if (within(path, 'generated'))
    return {
      folder: 'generated',
      allowed: (t) => (t.alias && (within(t.path, 'src/engine') || within(t.path, 'src/model'))) || within(t.path, 'generated'),
    };
  return undefined;
}

/** Every crossing in the project at `root`, as `file:line: <folder> may not import <target>`. */
export function checkBoundaries(root) {
  const problems = [];
  const files = RULED.flatMap((folder) => (existsSync(join(root, folder)) ? [...sourceFiles(root, join(root, folder))] : []));
  for (const abs of files) {
    const path = rel(root, abs);
    const rule = ruleOf(path);
    if (!rule) continue;
    const text = readFileSync(abs, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const ref of importedFiles) {
      const t = target(root, abs, ref.fileName);
      if (!t || rule.allowed(t)) continue;
      const line = text.slice(0, ref.pos).split('\n').length;
      problems.push(`${path}:${line}: ${rule.folder} may not import ${ref.fileName}`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = checkBoundaries(root);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`${problems.length} import${problems.length === 1 ? '' : 's'} cross a layer's boundary`);
    process.exit(1);
  }
  console.log('import boundaries: ok');
}
