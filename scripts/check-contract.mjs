#!/usr/bin/env node
// The API contract's lint, run by `npm run lint` and `npm test`. Three kinds of problem, each printed as
// one line naming the file and line:
//   1. an `/api/` address written outside the contract: every string or template literal of src/
//      (tests aside) holding `/api/` must sit in src/contract, or in src/model/routes.ts, which keeps
//      the low-code addresses the engine composes;
//   2. a refusal with free text: a call of badRequest, unauthorized, forbidden, notFound, conflict or
//      refusal in server/ whose code argument is a literal that is not a code of the error catalogue;
//   3. docs/openapi.json differs from what the contract gives (`npm run docs:openapi` writes it).
// ALLOWED_API_FILES lists the app files that still name addresses for now, each with its reason; the
// check says when an entry is no longer needed.
//
// Usage: node scripts/check-contract.mjs [root]   (root defaults to the project holding this script)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const HERE = dirname(fileURLToPath(import.meta.url));
const root = resolve(process.argv[2] ?? join(HERE, '..'));
/** The allowances are this project's: a tree of its own (the lint's tests) is judged without them. */
const ownProject = root === resolve(join(HERE, '..'));

/** Where an `/api/` address may be written. */
const API_HOMES = ['src/contract/', 'src/model/routes.ts'];
/** App files that still name addresses, each with its reason. */
export const ALLOWED_API_FILES = [];
/** The refusal helpers whose first code argument (second for `refusal`) must be a catalogue code. */
const REFUSALS = { badRequest: 0, unauthorized: 0, forbidden: 0, notFound: 0, conflict: 0, refusal: 1 };

const posix = (p) => p.split(sep).join('/');
const isTest = (p) => /\.test\.tsx?$/.test(p);

function files(dir, exts) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (exts.some((e) => name.endsWith(e))) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

function sourceOf(path) {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

/** The codes of the error catalogue, read from its source. */
function catalogueCodes() {
  const path = join(root, 'src/shared/error-catalogue.ts');
  if (!existsSync(path)) return new Set();
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('export const ERROR_MESSAGES = {');
  const end = text.indexOf('} as const', start);
  return new Set([...text.slice(start, end).matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));
}

const problems = [];

// 1. Addresses outside the contract.
const usedAllowances = new Set();
for (const path of files(join(root, 'src'), ['.ts', '.tsx'])) {
  const rel = posix(relative(root, path));
  if (isTest(rel) || API_HOMES.some((h) => (h.endsWith('/') ? rel.startsWith(h) : rel === h))) continue;
  const sf = sourceOf(path);
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (node.text.includes('/api/') || node.text === '/api') {
        if (ownProject && ALLOWED_API_FILES.some((a) => a.file === rel)) usedAllowances.add(rel);
        else
          problems.push(
            `${rel}:${lineOf(sf, node)}: an /api/ address outside src/contract (call it through the contract): ${JSON.stringify(node.text)}`,
          );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
if (ownProject) {
  for (const a of ALLOWED_API_FILES) {
    if (!usedAllowances.has(a.file)) problems.push(`${a.file}:1: names no /api/ address any more; drop it from ALLOWED_API_FILES`);
  }
}

// 2. Refusals with free text.
const codes = catalogueCodes();
for (const path of files(join(root, 'server'), ['.ts'])) {
  const rel = posix(relative(root, path));
  const sf = sourceOf(path);
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && Object.hasOwn(REFUSALS, node.expression.text)) {
      const arg = node.arguments[REFUSALS[node.expression.text]];
      if (arg && (ts.isStringLiteralLike(arg) || ts.isTemplateExpression(arg)) && !(ts.isStringLiteralLike(arg) && codes.has(arg.text))) {
        problems.push(
          `${rel}:${lineOf(sf, arg)}: a refusal with free text; name a code of the error catalogue: ${arg.getText(sf).slice(0, 80)}`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

// 3. The API document.
if (existsSync(join(root, 'scripts/openapi.ts'))) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--check'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0)
    problems.push(
      ...`${r.stderr}`
        .split('\n')
        .filter(Boolean)
        .map((l) => (/^\S+: /.test(l) ? l : `docs/openapi.json: ${l}`)),
    );
}

if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`contract: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(
  `contract: ok${ALLOWED_API_FILES.length ? ` (${ALLOWED_API_FILES.length} app files still name addresses, listed in ALLOWED_API_FILES)` : ''}`,
);
