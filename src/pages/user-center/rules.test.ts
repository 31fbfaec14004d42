import { describe, expect, it } from 'vitest';
import { citySlides, isAvatarFile, newEmailError, secondsLeft, timeTag } from './rules';

describe('personal centre rules', () => {
  it('checks the new e-mail: required, not the current one (any case), well formed', () => {
    expect(newEmailError('', 'a@b.cn')).toBe('请输入新邮箱');
    expect(newEmailError('A@B.cn', 'a@b.cn')).toBe('新邮箱不能与旧邮箱相同');
    expect(newEmailError('not-an-email', 'a@b.cn')).toBe('邮箱格式错误');
    expect(newEmailError('x@b.cn', null)).toBeNull();
  });

  it('takes jpg and png avatars only', () => {
    expect(isAvatarFile('me.JPG', 'image/jpeg')).toBe(true);
    expect(isAvatarFile('me.jpeg')).toBe(true);
    expect(isAvatarFile('me.png', 'image/png')).toBe(true);
    expect(isAvatarFile('me.gif', 'image/gif')).toBe(false);
    expect(isAvatarFile('me.png', 'image/gif')).toBe(false);
  });

  it.each([
    [0, 'success'],
    [300, 'success'],
    [301, 'warning'],
    [1000, 'warning'],
    [1001, 'error'],
  ] as const)('tags an operation of %i ms %s: normal to 300 ms, warning to 1000 ms, danger above', (ms, tag) => {
    expect(timeTag(ms)).toBe(tag);
  });

  it('puts 6 cities on the first slide and the rest on the second', () => {
    const cities = Array.from({ length: 13 }, (_, i) => i);
    expect(citySlides(cities)).toEqual([
      [0, 1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10, 11, 12],
    ]);
    expect(citySlides([1, 2])).toEqual([[1, 2]]);
    expect(citySlides([])).toEqual([]);
  });

  it('counts the resend cooldown down from 60 s', () => {
    expect(secondsLeft(null, 5000)).toBe(0);
    expect(secondsLeft(1000, 1000)).toBe(60);
    expect(secondsLeft(1000, 60_999)).toBe(1);
    expect(secondsLeft(1000, 61_000)).toBe(0);
    expect(secondsLeft(1000, 100_000)).toBe(0);
  });
});
