import { describe, expect, it } from 'vitest';
import { writeJson } from './json-text.js';

describe('writeJson', () => {
  it('writes a bigint as a JSON number with all its digits', () => {
    expect(writeJson({ a: 9223372036854775807n, b: [1n, -2n], c: 'x' })).toBe(
      '{"a":9223372036854775807,"b":[1,-2],"c":"x"}',
    );
  });

  it('writes everything else as JSON.stringify does, strings that look like markers included', () => {
    const value = { text: 'bigint:1:2', nested: { n: 1.5, empty: null, when: new Date(0) } };
    expect(writeJson(value)).toBe(JSON.stringify(value));
    expect(writeJson({ a: 1n, text: '"bigint:x:3"' })).toBe('{"a":1,"text":"\\"bigint:x:3\\""}');
  });
});
