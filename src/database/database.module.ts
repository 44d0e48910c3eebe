import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options.js';
import { DATABASE_SERVER, type DatabaseServer } from './database-server.js';
import { runMigrations } from './migrate.js';

/** Connects to Trove's database and brings its schema up to date before the app serves. */
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number, server?: DatabaseServer): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [{ provide: DATABASE_SERVER, useValue: server ?? null }],
      exports: [DATABASE_SERVER],
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(url, poolSize),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            await runMigrations(dataSource);
            return dataSource;
          },
        }),
      ],
    };
  }
}
