import PgBoss from 'pg-boss';
import { JOB_QUEUE_SCHEMA } from './job-queue.js';

/**
 * Creates or upgrades the job queue's tables (schema `pgboss`) in the database at `url`, as every
 * instance also does when it starts; for the migration command and for prepared databases.
 */
export async function installJobQueue(url: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema: JOB_QUEUE_SCHEMA,
    max: 1,
    supervise: false,
    schedule: false,
    migrate: true,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}
