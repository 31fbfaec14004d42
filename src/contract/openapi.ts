/**
 * The OpenAPI 3.1 document of the contract: every call of every resource with its address, input,
 * answer, access and refusals. It is written from the declarations alone, so the same contract always
 * gives the same document (docs/openapi.json is it, committed; /api/docs serves it).
 */
import { type ZodType, z } from 'zod';
import { ERROR_MESSAGES, type ErrorCode } from '../shared/error-catalogue.js';
import { type CallSpec, declaredErrors, isFileAnswer, isMultipart, type ResourceSpec } from './define.js';

type Json = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), what the client sends (`input`) or receives (`output`). */
function jsonSchema(schema: ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete s.$schema;
  return s;
}

/** The parameters of an object schema, one per property, in `path` or `query`. */
function parameters(schema: ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const s = jsonSchema(schema, 'input');
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: p,
  }));
}

/** Who may call, in the words of the document. */
function accessText(c: CallSpec): string {
  if (c.access === 'public') return 'public';
  if (c.access === 'session') return 'session';
  return [c.access.permission].flat().join(' | ');
}

function operation(r: ResourceSpec, name: string, c: CallSpec): Json {
  const codes = [...declaredErrors(c)].sort();
  const op: Json = {
    operationId: `${r.name}.${name}`,
    summary: c.summary,
    tags: [r.name],
    'x-access': accessText(c),
  };
  if (c.platform) op['x-platform'] = true;
  if (c.pending) op['x-pending'] = true;
  if (c.log) op['x-log'] = c.log;
  const params = [...parameters(c.params, 'path'), ...parameters(c.query, 'query')];
  if (params.length) op.parameters = params;
  if (c.body) {
    op.requestBody = isMultipart(c.body)
      ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } }
      : {
          required: !c.body.safeParse(undefined).success,
          content: { [c.form ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: jsonSchema(c.body, 'input') } },
        };
  }
  const ok = isFileAnswer(c.answer)
    ? { description: '文件', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
    : { description: '成功', content: { 'application/json': { schema: jsonSchema(c.answer, 'output') } } };
  op.responses = {
    [String(c.status ?? 200)]: ok,
    default: {
      description: codes.map((code) => `${code}: ${ERROR_MESSAGES[code as ErrorCode]}`).join('\n'),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Refusal' }, { properties: { code: { enum: codes } } }],
          },
        },
      },
    },
  };
  if (c.access !== 'public') op.security = [{ token: [] }];
  return op;
}

/** The document of the given resources. */
export function openApiDocument(resources: readonly ResourceSpec[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of resources) {
    for (const [name, c] of Object.entries(r.calls)) {
      const path = c.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
      paths[path] ??= {};
      (paths[path] as Json)[c.method.toLowerCase()] = operation(r, name, c);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'wastegen API',
      version,
      description:
        'Every call of the reference server, written from its contract (src/contract). Calls are signed (`timestamp` and `sign` headers) when the server has a signing secret; a refusal answers `{ status, code, message }` with the HTTP status equal to `status`.',
    },
    tags: resources.map((r) => ({ name: r.name, description: r.title })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      schemas: {
        Refusal: {
          type: 'object',
          required: ['status', 'code', 'message'],
          properties: { status: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  };
}
