import { expect } from 'vitest';
import { type ErrorCode, type ErrorParams, errorMessage } from '../../src/shared/error-catalogue.js';
import type { ApiClient, ApiResponse } from './server.js';

/** The body of a refusal by its code: `{ status, code, message }`, the message from the catalogue. */
export const refusal = (status: number, code: ErrorCode, params?: ErrorParams) => ({ status, code, message: errorMessage(code, params) });

/** An answer's body in a line, for a failed assertion's message. */
export const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 300);

/**
 * Runs each statement as a data view of `client` and answers those the server ran (each with its
 * answer): an attack expects none. A statement the server fails on (5xx) fails the test at once.
 */
export async function dataViewsRun(client: ApiClient, statements: readonly string[]): Promise<string[]> {
  const ran: string[] = [];
  for (const text of statements) {
    const r = await client.post('/api/data/run', { sql: text });
    expect(r.status, `${text}: ${said(r)}`).toBeLessThan(500);
    if (r.status === 200) ran.push(`${text} → ${said(r).slice(0, 160)}`);
  }
  return ran;
}
