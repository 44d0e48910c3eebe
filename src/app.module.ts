import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AccountsModule } from './identity/accounts/accounts.module.js';
import { AdminModule } from './identity/admin/admin.module.js';
import { AuthModule } from './identity/auth/auth.module.js';
import { CurrenciesModule } from './identity/currencies/currencies.module.js';
import { ExpiredCredentialsModule } from './identity/expired-credentials/expired-credentials.module.js';
import { GroupsModule } from './identity/groups/groups.module.js';
import { OidcModule } from './identity/oidc/oidc.module.js';
import { PasswordResetsModule } from './identity/password-resets/password-resets.module.js';
import { ScimModule } from './identity/scim/scim.module.js';
import { UsersModule } from './identity/users/users.module.js';
import { ActionsModule } from './inventory/actions/actions.module.js';
import { AttachmentsModule } from './inventory/attachments/attachments.module.js';
import { CheckoutsModule } from './inventory/checkouts/checkouts.module.js';
import { EntitiesModule } from './inventory/entities/entities.module.js';
import { EntityTypesModule } from './inventory/entity-types/entity-types.module.js';
import { HistoryModule } from './inventory/history/history.module.js';
import { LabelsModule } from './inventory/labels/labels.module.js';
import { MaintenanceModule } from './inventory/maintenance/maintenance.module.js';
import { ProductsModule } from './inventory/products/products.module.js';
import { StatisticsModule } from './inventory/statistics/statistics.module.js';
import { StockModule } from './inventory/stock/stock.module.js';
import { StoredFilesModule } from './inventory/stored-files/stored-files.module.js';
import { TagsModule } from './inventory/tags/tags.module.js';
import { TemplatesModule } from './inventory/templates/templates.module.js';
import { CollectionBackupsModule } from './operations/collection-backups/collection-backups.module.js';
import { DemoModule } from './operations/demo/demo.module.js';
import { NotifiersModule } from './operations/notifiers/notifiers.module.js';
import { InstanceBackupsModule } from './operations/instance-backups/instance-backups.module.js';
import { RemindersModule } from './operations/reminders/reminders.module.js';
import { ChangeEventsModule } from './platform/change-events/change-events.module.js';
import type { TroveConfig } from './platform/config/configuration.js';
import type { DatabaseServer } from './platform/database/database-server.js';
import { DatabaseModule } from './platform/database/database.module.js';
import { HttpErrorFilter } from './platform/http/http-error.filter.js';
import { createValidationPipe } from './platform/http/validation/validation.pipe.js';
import { IdempotencyModule } from './platform/idempotency/idempotency.module.js';
import { JobsModule } from './platform/jobs/jobs.module.js';
import { RECORDS } from './records.js';
import { ChangeFeedModule } from './web/change-feed/change-feed.module.js';
import { HealthModule } from './web/health/health.module.js';
import { StatusModule } from './web/status/status.module.js';
import { ConsoleModule } from './web/console/console.module.js';
import { PagesModule } from './web/pages/pages.module.js';
import { WebUiModule } from './web/web-ui/web-ui.module.js';

@Module({})
export class AppModule {
  /**
   * The whole application for a validated configuration and a database URL; with the
   * `DatabaseServer` Trove started, liveness fails once that server is down for good. The
   * modules are listed by layer (docs/architecture.md), bottom up; within the inventory the
   * entities come first, since the order in which modules are first imported is the order in
   * which their routes are registered (`inventory/entities/entities.module.ts`).
   */
  static forRoot(
    config: TroveConfig,
    databaseUrl: string,
    databaseServer?: DatabaseServer,
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // platform
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
        ChangeEventsModule,
        IdempotencyModule,
        // identity
        AuthModule,
        UsersModule,
        GroupsModule,
        CurrenciesModule,
        AccountsModule,
        PasswordResetsModule,
        OidcModule,
        ScimModule,
        AdminModule,
        ExpiredCredentialsModule,
        // inventory
        EntitiesModule,
        EntityTypesModule,
        TagsModule,
        StoredFilesModule,
        AttachmentsModule,
        MaintenanceModule,
        StockModule,
        CheckoutsModule,
        HistoryModule,
        TemplatesModule,
        LabelsModule,
        ProductsModule,
        StatisticsModule,
        ActionsModule,
        // operations
        NotifiersModule,
        RemindersModule,
        InstanceBackupsModule,
        CollectionBackupsModule,
        DemoModule,
        // web
        StatusModule,
        HealthModule,
        WebUiModule,
        PagesModule,
        ConsoleModule,
        ChangeFeedModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
