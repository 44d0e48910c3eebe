import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AttachmentsModule } from './inventory/attachments/attachments.module.js';
import { AuthModule } from './identity/auth/auth.module.js';
import { CheckoutsModule } from './inventory/checkouts/checkouts.module.js';
import { CollectionBackupsModule } from './operations/collection-backups/collection-backups.module.js';
import { HttpErrorFilter } from './platform/http/http-error.filter.js';
import { IdempotencyModule } from './platform/idempotency/idempotency.module.js';
import { createValidationPipe } from './platform/http/validation/validation.pipe.js';
import { CurrenciesModule } from './identity/currencies/currencies.module.js';
import type { TroveConfig } from './platform/config/configuration.js';
import type { DatabaseServer } from './platform/database/database-server.js';
import { DatabaseModule } from './platform/database/database.module.js';
import { EntitiesModule } from './inventory/entities/core/entities.module.js';
import { EntityTypesModule } from './inventory/entity-types/entity-types.module.js';
import { DemoModule } from './operations/demo/demo.module.js';
import { ChangeEventsModule } from './platform/change-events/change-events.module.js';
import { ChangeFeedModule } from './web/change-feed/change-feed.module.js';
import { GroupsModule } from './identity/groups/groups.module.js';
import { AccountsModule } from './identity/accounts/accounts.module.js';
import { HealthModule } from './web/health/health.module.js';
import { JobsModule } from './platform/jobs/jobs.module.js';
import { LabelsModule } from './inventory/labels/labels.module.js';
import { MaintenanceModule } from './inventory/maintenance/maintenance.module.js';
import { NotifiersModule } from './operations/notifiers/notifiers.module.js';
import { PasswordResetsModule } from './identity/password-resets/password-resets.module.js';
import { OidcModule } from './identity/oidc/oidc.module.js';
import { ProductsModule } from './inventory/products/products.module.js';
import { HistoryModule } from './inventory/history/history.module.js';
import { RemindersModule } from './operations/reminders/reminders.module.js';
import { ScimModule } from './identity/scim/scim.module.js';
import { RECORDS } from './records.js';
import { StatisticsModule } from './inventory/statistics/statistics.module.js';
import { StockModule } from './inventory/stock/stock.module.js';
import { StatusModule } from './web/status/status.module.js';
import { TagsModule } from './inventory/tags/tags.module.js';
import { TemplatesModule } from './inventory/templates/templates.module.js';
import { UsersModule } from './identity/users/users.module.js';
import { WebUiModule } from './web/web-ui/web-ui.module.js';

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
        ChangeEventsModule,
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
        ChangeFeedModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
