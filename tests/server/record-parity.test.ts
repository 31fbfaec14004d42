import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTIES, RECIPIENT_FIELD } from '../../server/access/parties.js';
import {
  buildSchema,
  dateMessage,
  decimalPlaces,
  type FieldModel,
  hiddenFields,
  isWarning,
  type ListPageModel,
  normalizeDateTime,
  normalizeDefinition,
} from '../../src/model/index.js';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { samplesFor } from '../helpers/validation-samples.js';

/**
 * The server judges a record exactly as the form does: every view definition of the project and of
 * the fixtures is designed on one server, and the samples the schema parity test uses go through
 * POST /api/general/add. Verdicts and each field's message must be the schema's. The only additions
 * are the table's own limits (bigint, numeric(20,6), varchar(255), real dates), which the column
 * oracle below states for a value the schema let through.
 */
const ROOT = join(import.meta.dirname, '../..');
const POOL = 6;

interface Case {
  file: string;
  json: Record<string, unknown>;
  page: ListPageModel;
}

function viewFiles(): string[] {
  const fixtures = join(ROOT, 'tests/fixtures');
  const dirs = [
    join(ROOT, 'definitions/views'),
    ...readdirSync(fixtures)
      .sort()
      .map((s) => join(fixtures, s, 'definitions/views')),
  ];
  return dirs.filter(existsSync).flatMap((d) =>
    readdirSync(d)
      .sort()
      .map((f) => join(d, f)),
  );
}

/** Definitions that normalise without errors, one per distinct form (the loose-* fixtures share theirs). */
function cases(): Case[] {
  const out: Case[] = [];
  const forms = new Set<string>();
  for (const file of viewFiles()) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const r = normalizeDefinition({ kind: 'view', file, json });
    if (r.page?.kind !== 'list' || r.problems.some((p) => !isWarning(p))) continue;
    const key = JSON.stringify(r.page.form);
    if (forms.has(key)) continue;
    forms.add(key);
    out.push({ file: file.slice(ROOT.length + 1), json: json as Record<string, unknown>, page: r.page });
  }
  return out;
}

/**
 * The menu of the copy the test adds: a componentName that decides who reads records belongs to one view
 * (the seeded one), so the copy takes a name of its own; the form, and so the parity, is the same.
 */
function ownMenu(menu: unknown): unknown {
  const m = menu as { componentName?: unknown } | null;
  const name = typeof m?.componentName === 'string' ? m.componentName : undefined;
  if (name === undefined || (PARTIES[name] === undefined && RECIPIENT_FIELD[name] === undefined)) return menu;
  return { ...m, componentName: `${name}ParityCopy` };
}

interface Problem {
  field: string;
  message: string;
}

const VARCHAR_MAX = 255;
const LONG_TEXT_KINDS = new Set(['textarea', 'editor', 'file', 'image']);

/** What the table refuses of a value the form's rule accepted (its output), or undefined. */
function columnLimit(f: FieldModel, v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  switch (f.dataType) {
    case 'long':
      return typeof v === 'number' || /^\s*[-+]?\d+\s*$/.test(String(v))
        ? Number.isSafeInteger(n)
          ? undefined
          : `${f.label}必须为整数`
        : `${f.label}必须为整数`;
    case 'decimal':
      if (typeof v !== 'number' && !/^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(String(v))) return `${f.label}必须为数字`;
      if (Math.abs(n) >= 1e14) return `${f.label}超出范围`;
      return decimalPlaces(n) > 6 ? `${f.label}最多保留6位小数` : undefined;
    case 'datetime':
      return normalizeDateTime(v, !/[Hh]/.test(f.timeFormat ?? 'HH'))
        ? undefined
        : dateMessage(f.label, /[Hh]/.test(f.timeFormat ?? 'HH') ? undefined : 'YYYY-MM-DD');
    default:
      if (!LONG_TEXT_KINDS.has(f.kind) && String(v).length > VARCHAR_MAX) return `${f.label}长度不能超过${VARCHAR_MAX}个字符`;
      return String(v).includes('\u0000') ? `${f.label}含有无法保存的字符` : undefined;
  }
}

/** The form's verdict on a record as it arrives over JSON, then the column limits: each field's first problem, in form order. */
function expected(page: ListPageModel, input: Record<string, unknown>): Problem[] {
  const schema = buildSchema(page.form);
  const first = new Map<string, string>();
  for (const issue of schema.safeParse(input).error?.issues ?? []) {
    const name = String(issue.path[0]);
    if (!first.has(name)) first.set(name, issue.message);
  }
  const hidden = hiddenFields(schema.relations, input);
  const out: Problem[] = [];
  for (const f of page.form.fields) {
    const rule = schema.shape[f.name];
    if (!rule) continue;
    const message = first.get(f.name);
    if (message) {
      out.push({ field: f.name, message });
      continue;
    }
    const alone = rule.safeParse(input[f.name]);
    const limit = hidden.has(f.name) || !alone.success ? undefined : columnLimit(f, alone.data);
    if (limit) out.push({ field: f.name, message: limit });
  }
  return out;
}

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

let server: TestServer;
let writtenInAll = 0;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => server?.close());

describe('POST /api/general/add ≡ buildSchema(form)', () => {
  const all = cases();

  it('covers the project definitions and the fixtures', () => {
    const files = all.map((c) => c.file);
    expect(files.filter((f) => f.startsWith('definitions/')).length).toBeGreaterThanOrEqual(9);
    expect(files).toEqual(expect.arrayContaining([expect.stringContaining('basic-view'), expect.stringContaining('hostile-labels')]));
  });

  for (const c of all) {
    it(c.file, async () => {
      const { json, page } = c;
      const add = await admin.post('/api/generation/add', {
        name: page.title,
        disMenu: ownMenu(json.disMenu),
        disTemplate: json.disTemplate,
      });
      // The server refuses text holding NUL anywhere in a request, definitions included: the CLI still
      // compiles such a definition (its generated code escapes it), but no server stores it.
      if (JSON.stringify(json).includes('\\u0000')) {
        expect(add.body).toEqual(refusal(400, 'INPUT_NUL'));
        return;
      }
      expect(add.body, JSON.stringify(add.body)).toMatchObject({ status: 200 });
      const viewId = add.body.id as number;

      // One field varies at a time, the others left out, then the others holding a value they accept
      // (so that records are also written); then every relation trigger at its values.
      const baseline: Record<string, unknown> = {};
      for (const f of page.form.fields) {
        const ok = samplesFor(f).find((v) => !isBlank(v) && !expected(page, { [f.name]: v }).some((p) => p.field === f.name));
        if (ok !== undefined) baseline[f.name] = ok;
      }
      const inputs: Record<string, unknown>[] = [];
      for (const base of [{}, baseline])
        for (const f of page.form.fields) for (const sample of samplesFor(f)) inputs.push({ ...base, [f.name]: sample });
      for (const f of page.form.fields.filter((x) => x.showRelation || x.requiredRelation))
        for (const value of [f.showRelation?.value, f.requiredRelation?.value, 'other']) inputs.push({ [f.name]: value });

      const mismatches: string[] = [];
      let refused = 0;
      let written = 0;
      await pool(inputs, POOL, async (sent) => {
        const input = JSON.parse(JSON.stringify(sent)) as Record<string, unknown>;
        const want = expected(page, input);
        const res = await admin.post(`/api/general/add/${viewId}`, input);
        let got: Problem[] = [];
        // Whether a typed number is one the company already has only the server tells, after the form accepted it.
        if (res.body.code === 'DOC_NUMBER_TAKEN') written++;
        else if (res.status === 400) {
          refused++;
          got = res.body.errors ?? [];
          expect(res.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: got[0]?.message, errors: got });
        } else {
          written++;
          expect(res.body, JSON.stringify(input)).toMatchObject({ status: 200, id: expect.any(Number) });
        }
        // Whether a picked record is among the field's options only the server tells (the form offers only those).
        const picked = got.length === 1 ? page.form.fields.find((f) => f.name === got[0]?.field) : undefined;
        if (!want.length && picked && got[0]?.message === errorMessage('REFERENCE_OUT_OF_SCOPE', { label: picked.label })) got = [];
        if (JSON.stringify(got) !== JSON.stringify(want))
          mismatches.push(`${JSON.stringify(input).slice(0, 100)}: server ${JSON.stringify(got)}, form ${JSON.stringify(want)}`);
      });
      expect(mismatches).toEqual([]);
      expect(inputs.length).toBeGreaterThan(page.form.fields.length);
      expect(refused).toBeGreaterThan(0);
      writtenInAll += written;
    });
  }

  it('wrote the records the form accepts', () => {
    expect(writtenInAll).toBeGreaterThan(100);
  });
});
