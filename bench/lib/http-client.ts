import { Pool } from 'undici';

/**
 * One keep-alive HTTP client per server, as a browser holds its connections: status and, when asked, the
 * JSON body. undici, not node:http: the load generator shares the machine's cores with the server it
 * measures, and undici's client costs about half the CPU per call.
 */
export function httpClient(baseUrl: string, token: string, sockets: number) {
  const pool = new Pool(baseUrl, { connections: sockets, pipelining: 1 });
  const call = async (method: 'GET' | 'POST', path: string, json?: unknown, read = false): Promise<{ status: number; body?: any }> => {
    const headers: Record<string, string> = { authorization: token };
    let payload: string | undefined;
    if (json !== undefined) {
      payload = JSON.stringify(json);
      headers['content-type'] = 'application/json';
    }
    try {
      const res = await pool.request({ method, path, headers, body: payload });
      if (!read) {
        await res.body.dump();
        return { status: res.statusCode };
      }
      const text = await res.body.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, body };
    } catch {
      return { status: 0 };
    }
  };
  return { call, close: () => void pool.destroy() };
}
