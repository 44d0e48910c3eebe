import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { finalize, type Observable } from 'rxjs';

/**
 * Counts the route handlers running (the outermost interceptor, so with what the other
 * interceptors do around them). A handler whose client has gone still runs to its end; shutdown
 * waits for the running ones (`settled`) before it closes the database, so their writes are not
 * cut off half-way.
 */
@Injectable()
export class InFlightHandlers implements NestInterceptor {
  private running = 0;
  private waiters: (() => void)[] = [];

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.running += 1;
    return next.handle().pipe(
      finalize(() => {
        this.running -= 1;
        if (this.running === 0) for (const resolve of this.waiters.splice(0)) resolve();
      }),
    );
  }

  /** Resolves once no handler runs, or after `timeoutMs`: with how many still run. */
  async settled(timeoutMs: number): Promise<number> {
    if (this.running === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.waiters.push(resolve)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return this.running;
  }
}
