import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Subject, lastValueFrom, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InFlightHandlers } from './in-flight-handlers.js';

const context = {} as ExecutionContext;
const handling = (result: Subject<unknown>): CallHandler => ({ handle: () => result });

describe('InFlightHandlers', () => {
  it('settles at once when nothing runs', async () => {
    expect(await new InFlightHandlers().settled(1000)).toBe(0);
  });

  it('waits for every running handler, whether it answers or fails', async () => {
    const handlers = new InFlightHandlers();
    const first = new Subject<unknown>();
    const second = new Subject<unknown>();
    const answered = lastValueFrom(handlers.intercept(context, handling(first)));
    const failed = lastValueFrom(handlers.intercept(context, handling(second))).catch(
      (error: unknown) => error,
    );
    let settled: number | undefined;
    const settling = handlers.settled(5000).then((running) => (settled = running));

    first.next('answer');
    first.complete();
    expect(await answered).toBe('answer');
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBeUndefined();

    second.error(new Error('gone'));
    expect(await failed).toEqual(new Error('gone'));
    expect(await settling).toBe(0);
  });

  it('gives up after the timeout, saying how many still run', async () => {
    const handlers = new InFlightHandlers();
    void lastValueFrom(handlers.intercept(context, handling(new Subject<unknown>())));
    await lastValueFrom(handlers.intercept(context, { handle: () => of('quick') }));
    await lastValueFrom(
      handlers.intercept(context, { handle: () => throwError(() => new Error('x')) }),
    ).catch(() => undefined);

    expect(await handlers.settled(20)).toBe(1);
  });
});
