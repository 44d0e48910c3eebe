import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CheckoutsModule } from './checkouts/checkouts.module.js';
import { CollectionBackupsModule } from './collection-backups/collection-backups.module.js';
import { HttpErrorFilter } from './common/errors/http-error.filter.js';
import { IdempotencyModule } from './common/idempotency/idempotency.module.js';
import { createValidationPipe } from './common/validation/validation.pipe.js';
import { CurrenciesModule } from './currencies/currencies.module.js';
import type { TroveConfig } from './config/configuration.js';
import type { DatabaseServer } from './database/database-server.js';
import { DatabaseModule } from './database/database.module.js';
import { EntitiesModule } from './entities/entities.module.js';
import { EntityTypesModule } from './entity-types/entity-types.module.js';
import { DemoModule } from './demo/demo.module.js';
import { EventsModule } from './events/events.module.js';
import { GroupsModule } from './groups/groups.module.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { HealthModule } from './health/health.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { LabelsModule } from './labels/labels.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { NotifiersModule } from './notifiers/notifiers.module.js';
import { PasswordResetsModule } from './password-resets/password-resets.module.js';
import { OidcModule } from './oidc/oidc.module.js';
import { ProductsModule } from './products/products.module.js';
import { HistoryModule } from './history/history.module.js';
import { RemindersModule } from './reminders/reminders.module.js';
import { ScimModule } from './scim/scim.module.js';
import { RECORDS } from './records.js';
import { StatisticsModule } from './statistics/statistics.module.js';
import { StockModule } from './stock/stock.module.js';
import { StatusModule } from './status/status.module.js';
import { TagsModule } from './tags/tags.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { UsersModule } from './users/users.module.js';
import { WebUiModule } from './web-ui/web-ui.module.js';

@Module({})
export class AppModule {
  /**
   * The whole application for a validated configuration and a database URL; with the
   * `DatabaseServer` Trove started, liveness fails once that server is down for good.
   */
  static forRoot(
    config: TroveConfig,
    databaseUrl: string,
    databaseServer?: DatabaseServer,
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        DatabaseModule.forRoot(
          databaseUrl,
          { size: config.database.poolSize, waitMs: config.database.poolWaitMs },
          RECORDS,
          databaseServer,
        ),
        JobsModule.forRoot({
          url: databaseUrl,
          workersEnabled: config.jobs.workersEnabled,
          pollIntervalSeconds: config.jobs.pollIntervalSeconds,
          poolSize: 3,
        }),
        AuthModule,
        EventsModule,
        UsersModule,
        AccountsModule,
        DemoModule,
        PasswordResetsModule,
        OidcModule,
        ScimModule,
        GroupsModule,
        EntitiesModule,
        EntityTypesModule,
        TemplatesModule,
        TagsModule,
        MaintenanceModule,
        CheckoutsModule,
        AttachmentsModule,
        LabelsModule,
        NotifiersModule,
        CollectionBackupsModule,
        RemindersModule,
        HistoryModule,
        StockModule,
        ProductsModule,
        CurrenciesModule,
        StatisticsModule,
        StatusModule,
        HealthModule,
        IdempotencyModule,
        WebUiModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
