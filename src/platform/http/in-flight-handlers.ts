/**
 * Counts the route handlers running. The HTTP adapter (`TroveExpressAdapter`) runs every route
 * handler it registers through `run`, so a handler is counted from the moment its route is
 * matched until it has answered or failed, with its guards, pipes, interceptors and exception
 * filter. A handler whose client has gone still runs to its end; shutdown waits for the running
 * ones (`settled`) before it closes the database, so their writes are not cut off half-way.
 */
export class InFlightHandlers {
  private running = 0;
  private waiters: (() => void)[] = [];

  /** Runs `handler`, counted until the promise it returns (if any) settles. */
  async run(handler: () => unknown): Promise<void> {
    this.running += 1;
    try {
      await handler();
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const resolve of this.waiters.splice(0)) resolve();
    }
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
