import { describe, expect, it } from 'vitest';
import { addTag, afterClose, closeAllTags, closeOtherTags, closeTag, neighbourOf, type Tag, withAffix } from './tags-store';

const tag = (path: string, extra: Partial<Tag> = {}): Tag => ({
  path,
  fullPath: path,
  title: path.slice(1),
  affix: false,
  noCache: false,
  ...extra,
});
const home = tag('/abandonhome', { title: '首页', affix: true, noCache: true });

describe('tag rules', () => {
  it('puts pinned tags first and never twice', () => {
    const restored = [tag('/a'), { ...home, affix: false }, tag('/b')];
    expect(withAffix(restored, [home]).map((t) => t.path)).toEqual(['/abandonhome', '/a', '/b']);
    expect(withAffix([], [home])).toEqual([home]);
  });

  it('adds a page once and updates its query', () => {
    const one = addTag([home], tag('/a'));
    expect(one.map((t) => t.path)).toEqual(['/abandonhome', '/a']);
    expect(addTag(one, tag('/a'))).toBe(one);
    const withQuery = addTag(one, tag('/a', { fullPath: '/a?id=2' }));
    expect(withQuery).toHaveLength(2);
    expect(withQuery[1]?.fullPath).toBe('/a?id=2');
  });

  it('closes a tag but never a pinned one', () => {
    const tags = [home, tag('/a'), tag('/b')];
    expect(closeTag(tags, '/a').map((t) => t.path)).toEqual(['/abandonhome', '/b']);
    expect(closeTag(tags, '/abandonhome')).toBe(tags);
  });

  it('closes the others and all, keeping pinned tags', () => {
    const tags = [home, tag('/a'), tag('/b'), tag('/c')];
    expect(closeOtherTags(tags, '/b').map((t) => t.path)).toEqual(['/abandonhome', '/b']);
    expect(closeOtherTags(tags, '/abandonhome').map((t) => t.path)).toEqual(['/abandonhome']);
    expect(closeAllTags(tags).map((t) => t.path)).toEqual(['/abandonhome']);
  });

  it('goes to the right neighbour, else the left one, when the open tag is closed', () => {
    const tags = [home, tag('/a'), tag('/b', { fullPath: '/b?x=1' })];
    expect(neighbourOf(tags, '/a')?.path).toBe('/b');
    expect(neighbourOf(tags, '/b')?.path).toBe('/a');
    const after = closeTag(tags, '/a');
    expect(afterClose(tags, after, '/a', neighbourOf(tags, '/a'))).toBe('/b?x=1');
    expect(afterClose(tags, closeTag(tags, '/b'), '/b', neighbourOf(tags, '/b'))).toBe('/a');
  });

  it('stays when the page shown survives or has no tag, else goes to the preferred or last tag', () => {
    const tags = [home, tag('/a'), tag('/b')];
    expect(afterClose(tags, closeTag(tags, '/b'), '/a')).toBeUndefined();
    expect(afterClose(tags, closeAllTags(tags), '/401')).toBeUndefined();
    expect(afterClose(tags, closeAllTags(tags), '/a')).toBe('/abandonhome');
    expect(afterClose(tags, closeOtherTags(tags, '/b'), '/a', tags[2])).toBe('/b');
  });
});
