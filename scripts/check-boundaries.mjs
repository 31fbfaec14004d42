#!/usr/bin/env node
// The layers and what each may import, checked on every .ts, .tsx, .mts, .cts, .js and .mjs file of
// src/, server/, cli/, generated/ and templates/ (static imports, `export … from`, `import type`,
// `import x = require()` and dynamic `import()`). docs/architecture.md explains the layers.
//
//   shared ← model ← engine ← data ← designer ← pages ← shell (src/shell, src/app, src/main.tsx)
//   shared ← model ← contract ← platform (request, session, notify, access, realtime, settings, messages)
//   contract ← data, designer, pages, shell, server, cli
//   platform ← data;  generated ← shell;  model, shared ← server and cli
//
// Four kinds of problem, each printed as one line naming the file and line:
//   1. a layer imports a layer it may not (`src/pages/x.tsx:3: pages may not import ../shell/y (shell)`),
//      or a file of src/ sits in a folder no layer owns;
//   2. a layer uses a package it may not (the model only zod and @noble/hashes, the app's layers no
//      node:* nor server packages, the server and the CLI no react or antd);
//   3. another layer reaches past the model's or the engine's index (src/model/index.ts,
//      src/engine/index.ts, or the @wastegen/model and @wastegen/engine aliases); the engine has a
//      second door, src/engine/viewer.ts, the big screen's renderer alone for the viewer's page, and
//      the model two, src/model/problems.ts, the problem type and its printing without the parser,
//      and src/model/canonical.ts, canonical JSON and content hashes without the parser;
//   4. files import each other in a cycle (`import cycle: a.ts → b.ts → a.ts`); imports of types
//      only and dynamic `import()` do not close a cycle, as neither runs when the module loads.
// Test files (*.test.ts(x)) keep the layer, index and cycle rules and may use any package.
// ALLOWED lists the problems that stand for now, each with its reason; the exit code is 1 when any
// other problem is found.
//
// Usage: node scripts/check-boundaries.mjs [root]   (root defaults to the project holding this script)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Packages only a browser may load. */
const BROWSER_ONLY = [
  'react',
  'react-dom',
  'react-router-dom',
  'react-hook-form',
  'react-grid-layout',
  'antd',
  '@ant-design/icons',
  'echarts',
  'codemirror',
  '@codemirror/*',
  'dompurify',
  'fuse.js',
  'qrcode',
];
/** Packages of the server and the build tools, never bundled into the app. */
const NODE_ONLY = [
  'node:*',
  ...builtinModules,
  'fastify',
  'fastify-*',
  '@fastify/*',
  'pg',
  '@electric-sql/pglite',
  'kysely',
  'libpg-query',
  'exceljs',
  '@e965/xlsx',
  'svg-captcha',
  'jose',
  'commander',
  'ts-morph',
  'handlebars',
  'esbuild',
];
const BROWSER = { not: NODE_ONLY };

/**
 * Each layer: the folders (or files) it holds, the layers it may import, and its packages (`only`:
 * nothing else; `not`: anything but these). A layer may always import itself.
 */
export const LAYERS = [
  { name: 'shared', folders: ['src/shared'], imports: [], packages: { only: ['zod', '@noble/hashes', 'dayjs'] } },
  { name: 'model', folders: ['src/model'], imports: ['shared'], packages: { only: ['zod', '@noble/hashes'] } },
  // The API contract: every call's address, input, answer, access and refusals, read by the app and the server.
  { name: 'contract', folders: ['src/contract'], imports: ['model', 'shared'], packages: { only: ['zod'] } },
  { name: 'engine', folders: ['src/engine'], imports: ['contract', 'model', 'shared'], packages: BROWSER },
  {
    name: 'platform',
    folders: ['src/navigation', 'src/request', 'src/session', 'src/notify', 'src/access', 'src/realtime', 'src/settings', 'src/messages'],
    imports: ['contract', 'model', 'shared'],
    packages: BROWSER,
  },
  // The data providers: the request layer answering the engine's data contract, for the engine's
  // services and for the pages' CRUD hooks.
  {
    name: 'data',
    folders: ['src/app/data-provider.ts', 'src/app/rest-data.ts'],
    imports: ['engine', 'platform', 'contract', 'model', 'shared'],
    packages: BROWSER,
  },
  {
    name: 'designer',
    folders: ['src/designer'],
    imports: ['data', 'engine', 'platform', 'contract', 'model', 'shared'],
    packages: BROWSER,
  },
  {
    name: 'pages',
    folders: ['src/pages'],
    imports: ['designer', 'data', 'engine', 'platform', 'contract', 'model', 'shared'],
    packages: BROWSER,
  },
  // The review page: a definition drawn by the engine with sample data, for `wastegen review`.
  {
    name: 'review',
    folders: ['src/review'],
    imports: ['engine', 'platform', 'contract', 'model', 'shared'],
    packages: BROWSER,
  },
  {
    name: 'shell',
    folders: ['src/shell', 'src/app', 'src/main.tsx'],
    imports: ['pages', 'designer', 'data', 'engine', 'platform', 'contract', 'model', 'shared', 'generated'],
    packages: BROWSER,
  },
  // Generated pages reach the engine and the model through the aliases only, so that they read the
  // same wherever generated/ sits.
  { name: 'generated', folders: ['generated'], imports: ['engine', 'model'], aliasesOnly: true, packages: BROWSER },
  { name: 'server', folders: ['server'], imports: ['contract', 'model', 'shared'], packages: { not: BROWSER_ONLY } },
  { name: 'cli', folders: ['cli'], imports: ['contract', 'model', 'shared', 'templates'], packages: { not: BROWSER_ONLY } },
  { name: 'templates', folders: ['templates'], imports: [], packages: { only: [] } },
];

/**
 * Layers whose doors are the only way in from another layer (a folder stands for its index file).
 * The engine's second door is the big screen's renderer alone: the viewer's own page
 * (ls-preview.html) draws screens through it and loads none of the back office's engine. The
 * model's second door is its problems (type, order, printing), which import nothing: the CLI's
 * start-up path uses them, so that a run with nothing to compile loads neither the parser nor zod.
 * Its third is its canonical JSON and content hashes (importing problems, coerce and @noble/hashes):
 * the CLI's writing thread hashes definitions ahead of the compile with them, without the parser or zod.
 * The engine's third door is its HTML sanitiser alone: the login page shows agreements through it
 * without loading the engine.
 */
const DOORS = {
  model: ['src/model', 'src/model/problems', 'src/model/canonical'],
  engine: ['src/engine', 'src/engine/viewer', 'src/engine/safe-html'],
};
/** A door's name for a file: its path without the extension, a folder's index as the folder. */
const doorOf = (path) => path.replace(/\.(ts|tsx|js|mjs)$/, '').replace(/\/index$/, '');
const ALIASES = { '@wastegen/model': 'src/model/index.ts', '@wastegen/engine': 'src/engine/index.ts' };

/**
 * Problems that stand for now, each with its reason: a crossing of a file under `files` into a
 * target under `targets` (project paths or packages; a trailing / takes a whole folder), or a
 * `cycle` through exactly these files. Drop an entry once its files are fixed; the check says
 * when one is no longer needed.
 */
export const ALLOWED = [
  {
    cycle: ['src/engine/list/list-page.tsx', 'src/engine/runtime/resolved-page.tsx'],
    reason: "a list button's dialog draws a view by id, and the runtime renderer draws lists: recursion by design, both in one chunk",
  },
  {
    files: ['src/pages/home-page.tsx'],
    targets: ['src/shell/'],
    reason: "the home page draws its shortcuts from the shell's sidebar items and links the shell's message page",
  },
];

const SKIP = new Set(['node_modules', 'dist']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const TEST = /\.test\.(ts|tsx)$/;

/** Project-relative path with forward slashes. */
const rel = (root, abs) => relative(root, abs).split(sep).join('/');
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`);
const layerOf = (path) => LAYERS.find((l) => l.folders.some((f) => within(path, f)));
const matches = (pattern, name) =>
  pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern || (pattern.endsWith('/') && name.startsWith(pattern));

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(abs);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield abs;
  }
}

/** The file a project path names, trying the extensions and index files TypeScript and Vite try. */
function resolveFile(root, path) {
  const isFile = (p) => existsSync(join(root, p)) && statSync(join(root, p)).isFile();
  const bare = path.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [path, ...['.ts', '.tsx', '.mts', '.js', '.mjs'].map((e) => bare + e)];
  candidates.push(...['index.ts', 'index.tsx', 'index.js', 'index.mjs'].map((i) => `${path}/${i}`));
  return candidates.find(isFile);
}

/** Package name of a bare specifier: `@scope/name` or `name`; node built-ins keep their `node:` prefix. */
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Every import of a file: specifier, line, whether it is types only, whether it is dynamic. */
function importsOf(abs, text) {
  const source = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, false, abs.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const found = [];
  const add = (node, literal, typeOnly, dynamic) => {
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ spec: literal.text, line, typeOnly, dynamic, pos: node.pos });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, typeOnly, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier, typeOnly, false);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node, node.moduleReference.expression, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A cycle through the strongly connected component `component` of `graph`, as a list of files. */
function cycleIn(graph, component) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first from start back to start, inside the component: the shortest cycle through it.
  const previous = new Map();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** Strongly connected components with more than one file, or one file importing itself (Tarjan). */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)?.has(file)) found.push(component);
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return found;
}

/**
 * Every problem in the project at `root`: `{ problems, allowed, unused }`, where `allowed` are the
 * problems ALLOWED excuses and `unused` the ALLOWED entries nothing needs any more.
 */
export function checkBoundaries(root, allowList = ALLOWED) {
  const problems = [];
  const allowed = [];
  const used = new Set();
  const graph = new Map();
  const folders = [...new Set(LAYERS.flatMap((l) => l.folders.map((f) => f.split('/')[0])))];
  const files = folders.flatMap((f) => (existsSync(join(root, f)) ? [...sourceFiles(join(root, f))] : []));

  const report = (path, line, target, message) => {
    const entry = allowList.find((a) => a.files?.some((f) => matches(f, path)) && a.targets.some((t) => matches(t, target)));
    if (entry) {
      used.add(entry);
      allowed.push(`${path}:${line}: ${message}`);
    } else problems.push(`${path}:${line}: ${message}`);
  };

  for (const abs of files) {
    const path = rel(root, abs);
    const layer = layerOf(path);
    if (!layer) {
      if (path.startsWith('src/')) problems.push(`${path}:1: ${path.split('/').slice(0, 2).join('/')} belongs to no layer`);
      continue;
    }
    const test = TEST.test(path);
    const text = readFileSync(abs, 'utf8');
    const edges = new Set();
    graph.set(path, edges);
    for (const { spec, line, typeOnly, dynamic } of importsOf(abs, text)) {
      const alias = Object.keys(ALIASES).find((a) => spec === a || spec.startsWith(`${a}/`));
      if (!alias && !spec.startsWith('.') && !spec.startsWith('/')) {
        // A package.
        if (test) continue;
        const name = spec.startsWith('node:') ? spec : packageOf(spec);
        const { only, not } = layer.packages;
        const ok = only ? only.some((p) => matches(p, name)) : !not.some((p) => matches(p, name));
        if (!ok) report(path, line, name, `${layer.name} may not use the package ${name}`);
        continue;
      }
      const targetPath = alias
        ? spec === alias
          ? ALIASES[alias]
          : dirname(ALIASES[alias]) + spec.slice(alias.length)
        : rel(root, resolve(dirname(abs), spec));
      if (targetPath.startsWith('..')) continue;
      const file = resolveFile(root, targetPath);
      const where = file ?? targetPath;
      const targetLayer = layerOf(where);
      if (file && !typeOnly && !dynamic) edges.add(file);
      if (!targetLayer) {
        report(path, line, where, `${layer.name} may not import ${spec} (outside every layer)`);
        continue;
      }
      if (targetLayer === layer) continue;
      if (!layer.imports.includes(targetLayer.name)) {
        report(path, line, where, `${layer.name} may not import ${spec} (${targetLayer.name})`);
        continue;
      }
      if (layer.aliasesOnly && !alias) {
        report(path, line, where, `${layer.name} may not import ${spec}: only through ${Object.keys(ALIASES).join(' or ')}`);
        continue;
      }
      const doors = DOORS[targetLayer.name];
      const viaDoor = alias ? spec === alias : doors?.includes(doorOf(where));
      if (doors && !viaDoor) {
        report(path, line, where, `${layer.name} must import the ${targetLayer.name} through its index, not ${spec}`);
      }
    }
  }

  for (const component of cycles(graph)) {
    const cycle = cycleIn(graph, component);
    const message = `import cycle: ${cycle.join(' → ')}`;
    const entry = allowList.find((a) => a.cycle && a.cycle.length === component.length && a.cycle.every((f) => component.includes(f)));
    if (entry) {
      used.add(entry);
      allowed.push(message);
    } else problems.push(message);
  }

  const unused = allowList.filter((a) => !used.has(a));
  return { problems, allowed, unused };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const { problems, allowed, unused } = checkBoundaries(root);
  for (const a of unused) console.log(`note: ALLOWED no longer needs ${(a.files ?? a.cycle).join(', ')} (${a.reason})`);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`${problems.length} import${problems.length === 1 ? '' : 's'} break the layers' rules (docs/architecture.md)`);
    process.exit(1);
  }
  console.log(`import boundaries: ok${allowed.length ? ` (${allowed.length} allowed for now, listed in ALLOWED)` : ''}`);
}
