import { describe, expect, it } from 'vitest';
import { sniffTextType } from './mime-sniff.js';

describe('sniffTextType', () => {
  it.each([
    ['<!DOCTYPE html><p>hi', 'text/html'],
    ['  \n<HTML>', 'text/html'],
    ['\ufeff<script>alert(1)</script>', 'text/html'],
    ['<a href="x">', 'text/html'],
    ['<!--x-->', 'text/html'],
    ['<?xml version="1.0"?><note/>', 'text/xml'],
    ['<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">', 'image/svg+xml'],
    ['<svg onload="alert(1)">', 'image/svg+xml'],
    ['<abbr>', 'text/plain'],
    ['plain words', 'text/plain'],
    ['', 'text/plain'],
  ])('%j is %s', (text, type) => {
    expect(sniffTextType(Buffer.from(text))).toBe(type);
  });
});
