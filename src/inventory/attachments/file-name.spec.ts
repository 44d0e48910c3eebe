import { describe, expect, it } from 'vitest';
import { fitTitle, safeBaseName, typeFromFileName } from './file-name.js';

describe('safeBaseName', () => {
  it.each([
    ['receipt.pdf', 'receipt.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\ada\\photo.jpg', 'photo.jpg'],
    ['a/b/c/', 'c'],
    ['..', ''],
    ['../..', ''],
    ['/', ''],
    ['  spaced name.txt  ', 'spaced name.txt'],
    ['two..dots.txt', 'two.dots.txt'],
    ['....jpg', '.jpg'],
    ['.jpg', '.jpg'],
    ['tab\there\u0000.txt', 'tabhere.txt'],
    ['evil\u202egpj.exe', 'evilgpj.exe'],
    ['Übersicht ✓.pdf', 'Übersicht ✓.pdf'],
  ])('%j becomes %j', (name, expected) => {
    expect(safeBaseName(name)).toBe(expected);
  });

  it('keeps at most 255 characters and the extension', () => {
    const title = safeBaseName(`${'é'.repeat(300)}.jpeg`);
    expect([...title]).toHaveLength(255);
    expect(title.endsWith('éé.jpeg')).toBe(true);
  });
});

describe('fitTitle', () => {
  it('leaves short titles alone and cuts long ones without an extension', () => {
    expect(fitTitle('short')).toBe('short');
    expect(fitTitle('x'.repeat(300))).toBe('x'.repeat(255));
  });
});

describe('typeFromFileName', () => {
  it.each([
    ['a.JPG', 'photo'],
    ['a.jpeg', 'photo'],
    ['a.png', 'photo'],
    ['a.heic', 'photo'],
    ['.jpg', 'photo'],
    ['a.pdf', 'attachment'],
    ['jpg', 'attachment'],
    ['a.svg', 'attachment'],
  ])('%s is a %s', (name, type) => {
    expect(typeFromFileName(name)).toBe(type);
  });
});
