import { Logger } from '@nestjs/common';
import { ClsServiceManager } from 'nestjs-cls';

const AFTER_COMMIT = 'trove.afterCommit';

const logger = new Logger('Database');

/**
 * The work a transaction defers until it has committed (`Database.afterCommit`): what must not
 * happen unless the change is kept, such as deleting the stored files the change stopped using.
 * Made by the unit-of-work adapter for each transaction it opens; a unit of work joined by an
 * inner one (a service's inside a request's) shares its list, so the work waits for the
 * outermost commit. Dropped when the transaction rolls back.
 */
export class AfterCommit {
  private readonly pending: (() => Promise<void>)[] = [];

  /** Makes this the list of the current context's transaction (call it inside the transaction). */
  attach(): void {
    ClsServiceManager.getClsService().set(AFTER_COMMIT, this);
  }

  /** The list of the transaction open in the current context, if any. */
  static current(): AfterCommit | undefined {
    const cls = ClsServiceManager.getClsService();
    return cls.isActive() ? cls.get<AfterCommit | undefined>(AFTER_COMMIT) : undefined;
  }

  add(work: () => Promise<void>): void {
    this.pending.push(work);
  }

  /** Runs the deferred work in order, after the commit; a failure is logged, not thrown. */
  async run(): Promise<void> {
    for (let work = this.pending.shift(); work !== undefined; work = this.pending.shift()) {
      try {
        await work();
      } catch (error) {
        logger.warn(`work after a commit failed: ${(error as Error).message}`);
      }
    }
  }
}
