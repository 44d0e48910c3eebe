import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.js';

/** A build that counts its calls and answers `text`. */
function counted(text: string): { build: () => Promise<Buffer>; calls: () => number } {
  let calls = 0;
  return {
    build: () => {
      calls++;
      return Promise.resolve(Buffer.from(text));
    },
    calls: () => calls,
  };
}

describe('ResponseCache', () => {
  it('builds an answer once per version of its group', async () => {
    const cache = new ResponseCache(1024);
    const first = counted('[1]');
    expect((await cache.body('g', '1', first.build)).toString()).toBe('[1]');
    expect((await cache.body('g', '1', first.build)).toString()).toBe('[1]');
    expect(first.calls()).toBe(1);
    const second = counted('[2]');
    expect((await cache.body('g', '2', second.build)).toString()).toBe('[2]');
    expect((await cache.body('g', '2', first.build)).toString()).toBe('[2]');
    expect(second.calls()).toBe(1);
    expect(first.calls()).toBe(1);
    expect(cache.keptBytes).toBe(3);
  });

  it('lets requests of one version share the build under way', async () => {
    const cache = new ResponseCache(1024);
    let finish: (body: Buffer) => void = () => undefined;
    let calls = 0;
    const build = (): Promise<Buffer> => {
      calls++;
      return new Promise((resolve) => (finish = resolve));
    };
    const answers = Promise.all([1, 2, 3].map(() => cache.body('g', '7', build)));
    finish(Buffer.from('[7]'));
    expect((await answers).map(String)).toEqual(['[7]', '[7]', '[7]']);
    expect(calls).toBe(1);
  });

  it('keeps groups apart', async () => {
    const cache = new ResponseCache(1024);
    expect(String(await cache.body('a', '1', counted('[a]').build))).toBe('[a]');
    expect(String(await cache.body('b', '1', counted('[b]').build))).toBe('[b]');
    expect(String(await cache.body('a', '1', counted('[x]').build))).toBe('[a]');
  });

  it('never replaces a newer answer with an older one', async () => {
    const cache = new ResponseCache(1024);
    await cache.body('g', '5', counted('[5]').build);
    expect(String(await cache.body('g', '4', counted('[4]').build))).toBe('[4]');
    const again = counted('[x]');
    expect(String(await cache.body('g', '5', again.build))).toBe('[5]');
    expect(again.calls()).toBe(0);
  });

  it('drops the least recently read answers past its budget, and keeps none bigger than it', async () => {
    const cache = new ResponseCache(10);
    await cache.body('a', '1', counted('aaaa').build);
    await cache.body('b', '1', counted('bbbb').build);
    await cache.body('a', '1', counted('xxxx').build); // a is read again: b is now the oldest
    await cache.body('c', '1', counted('cccc').build);
    expect(cache.keptBytes).toBe(8);
    const a = counted('xxxx');
    const b = counted('BBBB');
    expect(String(await cache.body('a', '1', a.build))).toBe('aaaa');
    expect(String(await cache.body('b', '1', b.build))).toBe('BBBB');
    expect([a.calls(), b.calls()]).toEqual([0, 1]);
    const huge = counted('hhhhhhhhhhhh');
    await cache.body('h', '1', huge.build);
    await cache.body('h', '1', huge.build);
    expect(huge.calls()).toBe(2);
    expect(cache.keptBytes).toBeLessThanOrEqual(10);
  });

  it('keeps nothing of a build that failed, and builds again on the next request', async () => {
    const cache = new ResponseCache(1024);
    const failing = (): Promise<Buffer> => Promise.reject(new Error('database gone'));
    await expect(cache.body('g', '1', failing)).rejects.toThrow('database gone');
    const next = counted('[1]');
    expect(String(await cache.body('g', '1', next.build))).toBe('[1]');
    expect(next.calls()).toBe(1);
    expect(cache.keptBytes).toBe(3);
  });

  it('compares versions of several numbers number by number', async () => {
    const cache = new ResponseCache(1024);
    await cache.body('g', '3.7', counted('[3.7]').build);
    const same = counted('[x]');
    expect(String(await cache.body('g', '3.7', same.build))).toBe('[3.7]');
    expect(same.calls()).toBe(0);
    // An older version (one number lower, none higher) never replaces the kept one ...
    await cache.body('g', '3.6', counted('[3.6]').build);
    expect(String(await cache.body('g', '3.7', same.build))).toBe('[3.7]');
    // ... a newer one does: any number higher, none lower.
    await cache.body('g', '4.7', counted('[4.7]').build);
    const newer = counted('[x]');
    expect(String(await cache.body('g', '4.7', newer.build))).toBe('[4.7]');
    expect(newer.calls()).toBe(0);
    expect(same.calls()).toBe(0);
  });
});
