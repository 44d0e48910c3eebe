import { Module, type DynamicModule } from '@nestjs/common';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options.js';
import { AttributedTransactionalAdapter } from './change-attribution.js';
import { Database } from './database.js';
import { DatabaseNotifications, NOTIFICATIONS_DATABASE_URL } from './database-notifications.js';
import {
  DATABASE_CONNECTION_URL,
  DATABASE_SERVER,
  type DatabaseServer,
} from './database-server.js';
import { runMigrations } from './migrate.js';

/**
 * Connects to Trove's database and brings its schema up to date before the app serves, and
 * provides the one way to it: `Database`, whose calls join the unit of work of the current
 * context (nestjs-cls with its transactional plugin over the TypeORM data source), and
 * `DatabaseNotifications`, the instance's one LISTEN connection. Every unit of work opened in the
 * context of a request that may change data (`platform/http/change-context.ts`) is attributed to
 * its caller and route (`change-attribution.ts`): the history records who changed what through
 * which operation.
 */
@Module({})
export class DatabaseModule {
  static forRoot(
    url: string,
    pool: { size: number; waitMs: number },
    records: NonNullable<DataSourceOptions['entities']> = [],
    server?: DatabaseServer,
  ): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(url, pool.size, pool.waitMs, records),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            await runMigrations(dataSource);
            return dataSource;
          },
        }),
        ClsModule.forRoot({
          global: true,
          plugins: [
            new ClsPluginTransactional({
              imports: [TypeOrmModule],
              adapter: new AttributedTransactionalAdapter({
                dataSourceToken: getDataSourceToken(),
              }),
            }),
          ],
        }),
      ],
      providers: [
        Database,
        DatabaseNotifications,
        { provide: NOTIFICATIONS_DATABASE_URL, useValue: url },
        { provide: DATABASE_SERVER, useValue: server ?? null },
        { provide: DATABASE_CONNECTION_URL, useValue: url },
      ],
      exports: [Database, DatabaseNotifications, DATABASE_SERVER, DATABASE_CONNECTION_URL],
    };
  }
}
