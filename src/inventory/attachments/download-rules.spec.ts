import { describe, expect, it } from 'vitest';
import {
  contentDisposition,
  entityTagOf,
  isNotModified,
  parseByteRange,
  rangeStillApplies,
} from './download-rules.js';

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=95-500', 100, { start: 95, end: 99 }],
    ['BYTES = 1 - 2', 100, { start: 1, end: 2 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=5-1', 100, undefined],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=-', 100, undefined],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});

describe('conditions', () => {
  const tag = '"abc"';
  const modified = new Date('2026-01-02T03:04:05Z');

  it('If-None-Match wins over If-Modified-Since and compares weakly', () => {
    expect(isNotModified({ ifNoneMatch: 'W/"abc"' }, tag, modified)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"x", "abc"' }, tag, modified)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '*' }, tag, modified)).toBe(true);
    expect(
      isNotModified(
        { ifNoneMatch: '"other"', ifModifiedSince: modified.toUTCString() },
        tag,
        modified,
      ),
    ).toBe(false);
  });

  it('If-Modified-Since compares to the second', () => {
    expect(isNotModified({ ifModifiedSince: modified.toUTCString() }, tag, modified)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Thu, 01 Jan 2026 00:00:00 GMT' }, tag, modified)).toBe(
      false,
    );
    expect(isNotModified({ ifModifiedSince: 'garbage' }, tag, modified)).toBe(false);
    expect(isNotModified({}, tag, modified)).toBe(false);
  });

  it('If-Range keeps the range only for the same strong tag or date', () => {
    expect(rangeStillApplies(undefined, tag, modified)).toBe(true);
    expect(rangeStillApplies('"abc"', tag, modified)).toBe(true);
    expect(rangeStillApplies('W/"abc"', tag, modified)).toBe(false);
    expect(rangeStillApplies(modified.toUTCString(), tag, modified)).toBe(true);
    expect(rangeStillApplies('Thu, 01 Jan 2026 00:00:00 GMT', tag, modified)).toBe(false);
  });
});

describe('contentDisposition', () => {
  it('shows safe images and PDF inline, everything else as a download, with the encoded title', () => {
    expect(contentDisposition('photo (1).jpg', 'image/jpeg')).toBe(
      "inline; filename*=UTF-8''photo%20%281%29.jpg",
    );
    expect(contentDisposition('Übersicht.pdf', 'application/pdf')).toBe(
      "inline; filename*=UTF-8''%C3%9Cbersicht.pdf",
    );
    expect(contentDisposition("it's.svg", 'image/svg+xml')).toBe(
      "attachment; filename*=UTF-8''it%27s.svg",
    );
    expect(contentDisposition('.jpg', 'text/html')).toBe("attachment; filename*=UTF-8''.jpg");
    expect(contentDisposition('bad\ud800.txt', 'text/plain')).toBe(
      "attachment; filename*=UTF-8''bad%EF%BF%BD.txt",
    );
  });
});

describe('entityTagOf', () => {
  it('uses the content hash of a generated key, else a hash of the key', () => {
    const hex = 'a'.repeat(64);
    expect(entityTagOf(`g/documents/${hex}`)).toBe(`"${hex}"`);
    expect(entityTagOf('odd/key.bin')).toMatch(/^"[0-9a-f]{64}"$/);
  });
});
