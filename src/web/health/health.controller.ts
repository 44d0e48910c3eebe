import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity/auth/decorators/public.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { HttpDrain } from '../../platform/http/graceful-shutdown.js';
import { DATABASE_SERVER, type DatabaseServer } from '../../platform/database/database-server.js';
import { DatabaseHealthService } from './database-health.service.js';
import { HealthDto } from './health.dto.js';

export const SHUTTING_DOWN_MESSAGE = 'the server is shutting down';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly databaseHealth: DatabaseHealthService,
    private readonly httpDrain: HttpDrain,
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
  @ApiOperation({ summary: 'Readiness: the database answers and the server is not shutting down' })
  @ApiOkResponse({ type: HealthDto })
  @ApiErrors(503)
  async getReadiness(): Promise<HealthDto> {
    if (this.httpDrain.stopping) throw new ServiceUnavailableException(SHUTTING_DOWN_MESSAGE);
    if (!(await this.databaseHealth.isHealthy())) {
      throw new ServiceUnavailableException('database is not reachable');
    }
    return { status: 'ok' };
  }
}
