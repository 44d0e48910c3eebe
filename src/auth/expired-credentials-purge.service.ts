import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Once an hour, deletes what can no longer be used: expired sessions, sign-in failure counts
 * older than a day, and invitations that expired or were used up. The deletes are idempotent,
 * so several instances may run them.
 */
@Injectable()
export class ExpiredCredentialsPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ExpiredCredentialsPurge');
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Runs one purge; returns how many rows of each kind went. */
  async purge(): Promise<{ tokens: number; attempts: number; invitations: number }> {
    try {
      const [tokens, attempts, invitations] = await Promise.all([
        this.deleteRows(`DELETE FROM auth_tokens WHERE expires_at <= now()`),
        this.deleteRows(`DELETE FROM login_attempts WHERE updated_at < now() - interval '1 day'`),
        this.deleteRows(
          `DELETE FROM group_invitation_tokens WHERE expires_at <= now() OR uses <= 0`,
        ),
      ]);
      const counts = { tokens, attempts, invitations };
      this.logger.debug(`purged ${JSON.stringify(counts)}`);
      return counts;
    } catch (error) {
      this.logger.warn(`purge failed: ${(error as Error).message}`);
      return { tokens: 0, attempts: 0, invitations: 0 };
    }
  }

  /** Runs a DELETE and returns how many rows it removed. */
  private async deleteRows(sql: string): Promise<number> {
    const [, count] = await this.dataSource.query<[unknown, number]>(sql);
    return count;
  }
}
