import http from 'node:http';

/** One keep-alive HTTP client per server, as a browser holds its connections: status and, when asked, the JSON body. */
export function httpClient(baseUrl: string, token: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  const call = (method: 'GET' | 'POST', path: string, json?: unknown, read = false) =>
    new Promise<{ status: number; body?: any }>((resolve) => {
      const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
      const headers: Record<string, string | number> = { authorization: token };
      if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
      const req = http.request({ host: hostname, port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => read && chunks.push(c));
        res.on('end', () => {
          let body: any;
          if (read) {
            try {
              body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              body = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', () => resolve({ status: 0 }));
      req.end(payload);
    });
  return { call, close: () => agent.destroy() };
}
