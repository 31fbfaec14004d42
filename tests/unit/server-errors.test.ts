import { describe, expect, it } from 'vitest';
import { ApiError, badRequest, fieldRefusal, invalidInput, refusal, statusRefusal } from '../../server/errors.js';

describe('server refusals', () => {
  it('answers a refusal by its code, with the catalogue text filled from its parameters', () => {
    expect(badRequest('LIST_PARAM_TOO_LARGE', { name: 'size', max: 1000 }).body()).toEqual({
      status: 400,
      code: 'LIST_PARAM_TOO_LARGE',
      message: '参数 size 不能大于 1000',
    });
    expect(refusal(404, 'VIEW_NOT_FOUND').body()).toEqual({ status: 404, code: 'VIEW_NOT_FOUND', message: '视图不存在' });
    expect(new ApiError(429, 'RATE_LIMITED').message).toBe('操作过于频繁，{retry}');
  });

  it('answers a field message that is a code as that code, any other as INVALID_INPUT with its text', () => {
    expect(fieldRefusal('MOBILE_INVALID').body()).toEqual({ status: 400, code: 'MOBILE_INVALID', message: '手机号格式错误' });
    // A catalogue text is not read back to its code: only the code names it.
    expect(fieldRefusal('手机号格式错误').body()).toEqual({ status: 400, code: 'INVALID_INPUT', message: '手机号格式错误' });
    expect(fieldRefusal('请输入公告标题').body()).toEqual({ status: 400, code: 'INVALID_INPUT', message: '请输入公告标题' });
    expect(invalidInput('数量必须大于0').with({ errors: [] }).body()).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: '数量必须大于0',
      errors: [],
    });
  });

  it('answers a bare status with its generic code', () => {
    expect(statusRefusal(404).code).toBe('DATA_NOT_FOUND');
    expect(statusRefusal(418).code).toBe('INVALID_INPUT');
    expect(statusRefusal(502).code).toBe('INTERNAL_ERROR');
  });
});

describe('a write that lost a race', () => {
  it('is told from other failures: a row gone when read again, a row named and deleted, a duplicate, a deadlock', async () => {
    const { NoResultError } = await import('kysely');
    const { concurrentWriteLost } = await import('../../server/input-guard.js');
    const pg = (code: string) => Object.assign(new Error('database error'), { code });
    expect(concurrentWriteLost(new NoResultError({} as never))).toBe(true);
    for (const code of ['23503', '23505', '40P01', '40001']) expect(concurrentWriteLost(pg(code)), code).toBe(true);
    // Anything else stays a 500 (or the caller's 400 for a value the database refused).
    for (const e of [pg('42P01'), pg('22P02'), new TypeError('x is undefined'), null, 'text'])
      expect(concurrentWriteLost(e), String(e)).toBe(false);
  });
});
