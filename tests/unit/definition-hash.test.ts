import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { definitionHash, setSha256 } from '../../src/model/canonical.js';

const SAMPLES: unknown[] = [
  { id: 1, name: '危废入库', disTemplate: { tableOption: [{ name: 'a', chName: '名称 " \\ \u2028' }] } },
  { id: 2, name: 'lone \ud800 surrogate and \udfff too', emoji: '😀', empty: '' },
  { createTime: '2026-01-01', updateTime: 'x', id: 3 },
  [1, 2, { b: 1, a: 2 }],
  'text',
];

describe('definitionHash', () => {
  it("gives the same digests with Node's native sha256 (what the CLI uses) as with the portable one (what the app uses)", () => {
    const portable = SAMPLES.map((s) => definitionHash(s));
    setSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));
    try {
      expect(SAMPLES.map((s) => definitionHash(s))).toEqual(portable);
    } finally {
      setSha256(undefined);
    }
  });

  it('leaves out the volatile timestamps', () => {
    expect(definitionHash({ id: 3, createTime: 'a' })).toBe(definitionHash({ id: 3, createTime: 'b' }));
  });
});
