/**
 * The typed client: the app calls the server through the contract's declarations, never by address.
 * `api(users.calls.list, { query: { page: 0 } })` sends the call its declaration describes, with the
 * path parameters filled in, and answers what the declaration says it answers.
 */
import { type BareCall, type CallAnswer, type CallInput, type CallSpec, fillPath, wireOf } from '../contract/define';
import type { RequestClient, RequestOptions } from './client';

/** The request options a caller may still choose; method, address and body come from the declaration. */
export type CallOptions = Omit<RequestOptions, 'method' | 'params' | 'data' | 'form' | 'multipart' | 'responseType'>;

/** A caller bound to one request client. */
export function contractCaller(client: RequestClient) {
  /** Sends a call by its declaration, or by its bare twin (app code that loads no zod). */
  function api<C extends CallSpec>(c: C | BareCall<C>, input?: CallInput<C>, options?: CallOptions): Promise<CallAnswer<C>>;
  function api<C extends CallSpec>(
    c: C | BareCall<C>,
    input: CallInput<C> = {} as CallInput<C>,
    options: CallOptions = {},
  ): Promise<CallAnswer<C>> {
    const wire = wireOf(c);
    const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const options2: RequestOptions = {
      ...options,
      method: wire.method,
      params: query,
      responseType: wire.file ? 'response' : 'json',
    };
    if (wire.multipart) options2.multipart = body as FormData;
    else if (wire.form) options2.form = body as Record<string, unknown>;
    else if (body !== undefined) options2.data = body;
    return client.request<CallAnswer<C>>(fillPath(wire.path, params), options2);
  }
  return api;
}
