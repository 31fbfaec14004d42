import { describe, expect, it } from 'vitest';
import { EDITOR_IMAGE_TYPES, EDITOR_UPLOAD_URL, editorImageHtml, editorImageUrl } from './rich-text-editor';

describe('rich-text pictures', () => {
  it('go through the upload call and are shown from the open image address, with their name as alt', () => {
    expect(EDITOR_UPLOAD_URL).toBe('/api/file/upload');
    expect(EDITOR_IMAGE_TYPES).toEqual(['jpg', 'jpeg', 'png']);
    expect(editorImageUrl('2026/01/0123456789abcdef01234567.png')).toBe('/api/open/image?source=2026%2F01%2F0123456789abcdef01234567.png');
    expect(editorImageHtml('2026/01/0123456789abcdef01234567.png', 'a"<b>&.png')).toBe(
      '<img src="/api/open/image?source=2026%2F01%2F0123456789abcdef01234567.png" alt="a&quot;&lt;b>&amp;.png">',
    );
  });
});
