import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import {
  databaseOutage,
  isDatabaseUnavailable,
} from '../../platform/database/database-availability.js';

const PING_TIMEOUT_MS = 2000;

/** Tells whether the database answers a trivial query within a short time. */
@Injectable()
export class DatabaseHealthService {
  constructor(private readonly db: Database) {}

  async isHealthy(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    const ping = this.db
      .query('SELECT 1')
      .then(() => true)
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) databaseOutage.failed(error);
        return false;
      });
    try {
      return await Promise.race([ping, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
