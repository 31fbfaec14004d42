import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// Every installed package must run on the oldest Node the project declares: a package whose `engines`
// shuts that Node out breaks `npm install && npm start` there, or runs unsupported.
const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }>;
};

describe('Node versions', () => {
  it('the oldest declared Node satisfies every locked package that states its engines', () => {
    const oldest = semver.minVersion(pkg.engines.node)?.version;
    expect(oldest).toBeDefined();
    const shutOut: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !p.engines || Array.isArray(p.engines) ? undefined : p.engines.node;
      if (!path || !range) continue;
      if (!semver.satisfies(oldest as string, range)) shutOut.push(`${path}@${p.version}: node ${range}`);
    }
    expect(shutOut).toEqual([]);
  });
});
