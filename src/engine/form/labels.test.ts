import { describe, expect, it } from 'vitest';
import { GENERAL_UPLOAD_TYPES } from '../../model';
import { compressedSize, needsCompression, nextSize } from './compress';
import { cssSize, extensionOf, filesText, isAccepted, parseFiles, truncateLabel, uploadTypeMessage } from './labels';
import { blockingProblems, queryValues } from './page-query';

describe('truncateLabel', () => {
  it('keeps labels of up to 20 characters and cuts longer ones to 20 plus …', () => {
    expect(truncateLabel('危废入库')).toBe('危废入库');
    const twenty = '一二三四五六七八九十一二三四五六七八九十';
    expect(truncateLabel(twenty)).toBe(twenty);
    expect(truncateLabel(`${twenty}多`)).toBe(`${twenty}…`);
    expect(truncateLabel('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopqrst…');
  });

  it('counts an emoji or other astral character as one', () => {
    expect(truncateLabel('😀'.repeat(21))).toBe(`${'😀'.repeat(20)}…`);
  });
});

describe('upload rules', () => {
  it('uses the specification text for the general list, and the same style for a field list', () => {
    expect(uploadTypeMessage(GENERAL_UPLOAD_TYPES)).toBe('允许上传 doc、docx、 xls、xlsx、pdf、jpg、jpeg、png');
    expect(uploadTypeMessage(['jpg', 'png'])).toBe('允许上传 jpg、png');
    expect(uploadTypeMessage(['xls', 'xlsx'])).toBe('允许上传 xls、xlsx');
  });

  it('checks the extension, case-insensitively', () => {
    expect(extensionOf('C:\\scans\\Receipt.PNG')).toBe('png');
    expect(extensionOf('.bashrc')).toBe('');
    expect(isAccepted('a.JPG', ['jpg', 'png'])).toBe(true);
    expect(isAccepted('a.pdf', ['jpg', 'png'])).toBe(false);
    expect(isAccepted('png', ['png'])).toBe(false);
  });

  it('reads every stored form of a file list and writes JSON text', () => {
    expect(parseFiles('[{"fileName":"a.pdf","filePath":"2026/01/a.pdf"}]')).toEqual([{ fileName: 'a.pdf', filePath: '2026/01/a.pdf' }]);
    expect(parseFiles('2026/01/a.pdf, 2026/01/b.pdf')).toEqual([
      { fileName: 'a.pdf', filePath: '2026/01/a.pdf' },
      { fileName: 'b.pdf', filePath: '2026/01/b.pdf' },
    ]);
    expect(parseFiles(['2026/01/a.pdf'])).toEqual([{ fileName: 'a.pdf', filePath: '2026/01/a.pdf' }]);
    expect(parseFiles('[broken')).toEqual([]);
    expect(parseFiles(null)).toEqual([]);
    expect(filesText([])).toBeNull();
    expect(filesText([{ fileName: 'a', filePath: 'p' }])).toBe('[{"fileName":"a","filePath":"p"}]');
  });
});

describe('image compression sizing', () => {
  it('compresses images over 1 MB only', () => {
    expect(needsCompression(1024 * 1024, 'image/jpeg')).toBe(false);
    expect(needsCompression(1024 * 1024 + 1, 'image/jpeg')).toBe(true);
    expect(needsCompression(5 * 1024 * 1024, 'image/png')).toBe(true);
    expect(needsCompression(5 * 1024 * 1024, 'application/pdf')).toBe(false);
  });

  it('draws 600 px wide first, keeping the aspect ratio', () => {
    expect(compressedSize(4000, 3000)).toEqual({ width: 600, height: 450 });
    expect(compressedSize(1200, 5000)).toEqual({ width: 600, height: 2500 });
    expect(compressedSize(500, 400)).toEqual({ width: 500, height: 400 });
  });

  it('shrinks further by the square root of the overshoot until it fits in 1 MB', () => {
    expect(nextSize({ width: 600, height: 450 }, 900 * 1024)).toBeUndefined();
    const next = nextSize({ width: 600, height: 450 }, 4 * 1024 * 1024);
    // √(1/4) × 0.9 = 0.45
    expect(next).toEqual({ width: 270, height: 203 });
    expect(nextSize({ width: 70, height: 70 }, 100 * 1024 * 1024)).toBeUndefined();
  });
});

describe('full-page form helpers', () => {
  it('reads route query values as numbers', () => {
    expect(queryValues('?id=5&companyId=03&name=abc&empty=&ratio=1.5')).toEqual({
      id: 5,
      companyId: 3,
      name: 'abc',
      empty: '',
      ratio: 1.5,
    });
  });

  it('lists blocking problems as pointer: message, leaving warnings out', () => {
    expect(
      blockingProblems([
        { code: 'E_NUMBER', file: 'v', pointer: '/disTemplate/formOption/3/configure/min', message: 'expected a number, got "abc"' },
        { code: 'W_DATATYPE', file: 'v', pointer: '/disTemplate/formOption/1/dataType', message: 'read as varchar' },
      ]),
    ).toEqual(['/disTemplate/formOption/3/configure/min: expected a number, got "abc"']);
  });

  it('writes widths as CSS', () => {
    expect(cssSize(250)).toBe('250px');
    expect(cssSize('250')).toBe('250px');
    expect(cssSize('60%')).toBe('60%');
    expect(cssSize(undefined)).toBeUndefined();
  });
});
