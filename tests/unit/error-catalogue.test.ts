import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/model/problems.js';
import {
  definitionInvalidMessage,
  ERROR_MESSAGES,
  type ErrorCode,
  errorMessage,
  isErrorCode,
  PROBLEM_MESSAGES,
} from '../../src/shared/error-catalogue.js';

const HAN = /\p{Script=Han}/u;

describe('error catalogue', () => {
  const entries = Object.entries(ERROR_MESSAGES) as [ErrorCode, string][];

  it('gives every code a non-empty Chinese message', () => {
    for (const [code, message] of entries) {
      expect(code, code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(message.trim(), code).not.toBe('');
      expect(HAN.test(message), `${code}: ${message}`).toBe(true);
    }
  });

  it('has one code per message: no two codes share a text, so a message a user reports names its refusal', () => {
    const byText = new Map<string, ErrorCode[]>();
    for (const [code, message] of entries) byText.set(message, [...(byText.get(message) ?? []), code]);
    expect([...byText.values()].filter((codes) => codes.length > 1)).toEqual([]);
  });

  it('fills parameters, leaving a missing one as written', () => {
    const text = errorMessage('LIST_PARAM_TOO_LARGE', { name: 'size', max: 1000 });
    expect(text).toBe('参数 size 不能大于 1000');
    expect(errorMessage('LIST_PARAM_TOO_LARGE', { name: 'size' })).toBe('参数 size 不能大于 {max}');
    expect(isErrorCode('VIEW_NOT_FOUND')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('keeps the codes the app acts on', () => {
    expect(ERROR_MESSAGES.PASSWORD_EXPIRED).toBe('密码已过期，请先修改密码');
    expect(ERROR_MESSAGES.AGREEMENT_PENDING).toBe('请先阅读并同意入驻协议');
  });

  it('renders every model problem in Chinese, with no English sentence inside', () => {
    for (const code of Object.keys(CODES)) {
      const text = PROBLEM_MESSAGES[code];
      expect(text, code).toBeTruthy();
      expect(HAN.test(text ?? ''), code).toBe(true);
    }
    const text = definitionInvalidMessage([
      { code: 'E_NUMBER', pointer: '/page/columns/0/width' },
      { code: 'E_REQUIRED', pointer: '' },
      { code: 'E_ENUM', pointer: '/a' },
      { code: 'E_RANGE', pointer: '/b' },
    ]);
    expect(text).toBe('定义不合法：/page/columns/0/width：取值不是有效的数字；/：缺少必填项或为空；/a：取值不在允许的范围内（共 4 处）');
  });
});
