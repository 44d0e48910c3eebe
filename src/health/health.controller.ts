import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/decorators/public.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { DATABASE_SERVER, type DatabaseServer } from '../database/database-server.js';
import { DatabaseHealthService } from './database-health.service.js';
import { HealthDto } from './health.dto.js';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly databaseHealth: DatabaseHealthService,
    @Optional() @Inject(DATABASE_SERVER) private readonly databaseServer: DatabaseServer | null,
  ) {}

  @Get('live')
  @ApiOperation({
    summary:
      'Liveness: the process is up and serving HTTP, and its embedded database has not failed for good',
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiErrors(503)
  getLiveness(): HealthDto {
    if (this.databaseServer?.failure) {
      throw new ServiceUnavailableException(
        'the embedded database stopped and could not be restarted',
      );
    }
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiErrors(503)
  async getReadiness(): Promise<HealthDto> {
    if (!(await this.databaseHealth.isHealthy())) {
      throw new ServiceUnavailableException('database is not reachable');
    }
    return { status: 'ok' };
  }
}
