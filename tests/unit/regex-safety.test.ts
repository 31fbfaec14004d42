import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../server/lib/message-html.js';
import { NUMBER_TEXT, PERCENT_TEXT, PIXEL_TEXT } from '../../src/model/coerce.js';
import { trimChar, withoutQuery } from '../../src/model/index.js';

/**
 * Every regular expression literal of the app, the model, the server and the CLI runs in linear
 * time: a pattern that backtracks (quadratic or worse on a crafted text, like /\s*(px)?\s*$/ on many
 * spaces) lets one long value in a definition, an upload or an address hold a thread. recheck
 * decides; the few left are listed with why their input cannot be long or hostile.
 */
const ROOT = join(import.meta.dirname, '../..');
const SCANNED = ['src', 'server', 'cli'];

const BOUNDED: Record<string, string> = {
  'src/engine/routes.ts /https?:\\/\\/\\S+?\\.js\\b/': "a stack trace of the app's own code, in the browser",
  "src/request/download.ts /filename\\*\\s*=\\s*([^';]*)'[^']*'([^;]*)/i":
    "the server's own Content-Disposition header, a few hundred bytes",
  'src/shared/format.ts /\\B(?=(\\d{3})+$)/g': 'the digits of a number, at most some twenty',
  "cli/impact.ts /import\\('\\.\\/(.+?)'\\)/": 'lines of the routes module wastegen itself wrote',
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.|\.d\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Each regular expression literal: where, its source and its flags. */
function literals(): { at: string; source: string; flags: string; text: string }[] {
  const out: { at: string; source: string; flags: string; text: string }[] = [];
  for (const file of SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)))) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(sf);
        const end = literal.lastIndexOf('/');
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        out.push({ at: `${relative(ROOT, file)}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1), text: literal });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

const verdict = (source: string, flags: string) => {
  const r = checkSync(source, flags, { timeout: 10_000 });
  return r.status === 'vulnerable' ? `vulnerable (${r.complexity.type}; attack ${r.attack.pattern.slice(0, 60)})` : r.status;
};

describe('regular expressions', () => {
  it('backtrack in no literal of the app, the model, the server or the CLI, but the listed ones', () => {
    const found = literals();
    expect(found.length).toBeGreaterThan(300);
    const unsafe: string[] = [];
    const listed = new Set<string>();
    for (const r of found) {
      const v = verdict(r.source, r.flags);
      if (v === 'safe') continue;
      const key = `${r.at.split(':')[0]} ${r.text}`;
      if (BOUNDED[key]) listed.add(key);
      else unsafe.push(`${r.at} ${r.text}: ${v}`);
    }
    expect(unsafe).toEqual([]);
    // A listed one that is gone or became safe leaves the list.
    expect([...listed].sort()).toEqual(Object.keys(BOUNDED).sort());
  }, 120_000);

  it("of the model's number readers run in linear time too", () => {
    for (const re of [NUMBER_TEXT, PIXEL_TEXT, PERCENT_TEXT]) expect(verdict(re.source, re.flags), re.source).toBe('safe');
  }, 60_000);

  it('that were replaced read as before', () => {
    for (const [text, ok] of [
      ['12', true],
      [' 12 px ', true],
      ['12px', true],
      ['-1.5 px', true],
      ['12 pxx', false],
      ['px', false],
      [`1${' '.repeat(20)}x`, false],
    ] as const)
      expect(PIXEL_TEXT.test(text), text).toBe(ok);
    expect(trimChar('//a/b//', '/')).toBe('a/b');
    expect(trimChar('//a/b//', '/', 'end')).toBe('//a/b');
    expect(trimChar('////', '/', 'end')).toBe('');
    expect(withoutQuery('/a/b?x=1#h')).toBe('/a/b');
    expect(withoutQuery('/a#h?x')).toBe('/a');
    expect(withoutQuery('/a')).toBe('/a');
    expect(plainText('<p>a<b>b</b>&amp;</p>')).toBe('ab&');
    expect(plainText('x <a<b> y')).toBe('x y');
    expect(plainText('a < b')).toBe('a < b');
    expect(plainText(`${'<'.repeat(200_000)}done`)).toBe(`${'<'.repeat(200_000)}done`);
  });
});
