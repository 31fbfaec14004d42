import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dataViewUrl } from '../../server/lowcode/data-view-login.js';

/** Where pg's own client would connect, given the URL. */
function parse(url: string) {
  const c = new pg.Client({ connectionString: url }) as unknown as Record<string, unknown>;
  return { host: c.host, port: String(c.port), database: c.database, user: c.user, password: c.password };
}

/** The data views' login connects where the server does: over TCP, or through the Unix socket the server's URL names. */
describe('dataViewUrl', () => {
  const login = { role: 'wastegen_data_view_x', password: 'p@ss/word' };

  it('keeps a Unix socket folder given as ?host=', () => {
    const url = dataViewUrl('postgres://wastegen@localhost/wastegen?host=/var/run/postgresql', login);
    const c = parse(url);
    expect(c.host).toBe('/var/run/postgresql');
    expect(c.database).toBe('wastegen');
    expect(c.user).toBe(login.role);
    expect(c.password).toBe(login.password);
  });

  it('keeps host, port and database over TCP', () => {
    const c = parse(dataViewUrl('postgres://wastegen:secret@db-host:6543/wastegen', login));
    expect([c.host, c.port, c.database, c.user, c.password]).toEqual(['db-host', '6543', 'wastegen', login.role, login.password]);
  });
});
