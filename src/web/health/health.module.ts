import { Module } from '@nestjs/common';
import { HttpDrain } from '../../platform/http/graceful-shutdown.js';
import { DatabaseHealthService } from './database-health.service.js';
import { HealthController } from './health.controller.js';

@Module({
  controllers: [HealthController],
  // The web server's drain: `main.ts` watches the server with it and drains it on a signal;
  // readiness fails from then on.
  providers: [DatabaseHealthService, HttpDrain],
  exports: [DatabaseHealthService, HttpDrain],
})
export class HealthModule {}
