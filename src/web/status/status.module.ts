import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module.js';
import { StatusController } from './status.controller.js';
import { StatusService } from './status.service.js';

@Module({
  imports: [HealthModule],
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
