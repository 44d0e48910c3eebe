import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.js';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts the outermost object or array as level 1', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', null] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', null, {}] }, 2)).toBe(true);
  });

  it('finds the deepest branch among wide siblings', () => {
    const wide = { list: Array.from({ length: 1000 }, () => ({ n: 1 })), deep: nested(31) };
    expect(nestsDeeperThan(wide, 32)).toBe(false);
    expect(nestsDeeperThan({ ...wide, deep: nested(32) }, 32)).toBe(true);
  });

  it('measures values nested far deeper than the call stack allows', () => {
    expect(nestsDeeperThan(nested(1_000_000), 32)).toBe(true);
  });
});
