import { describe, expect, it } from 'vitest';
import { InFlightHandlers } from './in-flight-handlers.js';

/** A handler's result that the test settles when it likes. */
function pending(): { promise: Promise<string>; answer(): void; fail(): void } {
  let answer!: () => void;
  let fail!: () => void;
  const promise = new Promise<string>((resolve, reject) => {
    answer = () => resolve('answer');
    fail = () => reject(new Error('gone'));
  });
  return { promise, answer, fail };
}

describe('InFlightHandlers', () => {
  it('settles at once when nothing runs', async () => {
    expect(await new InFlightHandlers().settled(1000)).toBe(0);
  });

  it('waits for every running handler, whether it answers or fails', async () => {
    const handlers = new InFlightHandlers();
    const first = pending();
    const second = pending();
    const answered = handlers.run(() => first.promise);
    const failed = handlers.run(() => second.promise).catch((error: unknown) => error);
    let settled: number | undefined;
    const settling = handlers.settled(5000).then((running) => (settled = running));

    first.answer();
    await answered;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBeUndefined();

    second.fail();
    expect(await failed).toEqual(new Error('gone'));
    expect(await settling).toBe(0);
  });

  it('counts a handler that answers at once, or throws, only while it runs', async () => {
    const handlers = new InFlightHandlers();
    let runningInside: number | undefined;
    await handlers.run(async () => {
      runningInside = await handlers.settled(0);
    });
    expect(runningInside).toBe(1);
    await expect(
      handlers.run(() => {
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    expect(await handlers.settled(0)).toBe(0);
  });

  it('gives up after the timeout, saying how many still run', async () => {
    const handlers = new InFlightHandlers();
    void handlers.run(() => pending().promise);
    await handlers.run(() => 'quick');

    expect(await handlers.settled(20)).toBe(1);
  });
});
