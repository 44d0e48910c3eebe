import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InstanceAdminOnly } from '../../identity/admin/instance-admin.decorator.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import {
  AdminPageQueryDto,
  DEFAULT_ADMIN_PAGE_SIZE,
} from '../../identity/admin/dto/admin-list.query.dto.js';
import { InstanceBackupPageDto } from './dto/instance-backup.dto.js';
import { InstanceBackupsService } from './instance-backups.service.js';

/** The instance administrators' list of instance backups. */
@ApiTags('admin')
@ApiAuth()
@InstanceAdminOnly()
@Controller('admin/backups')
export class InstanceBackupsController {
  constructor(private readonly backups: InstanceBackupsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Instance backups made, newest first, with size, counts, state, where stored and the last ' +
      'rehearsed restore (instance administrators)',
  })
  @ApiOkResponse({ type: InstanceBackupPageDto })
  @ApiErrors(422)
  list(@Query() query: AdminPageQueryDto): Promise<InstanceBackupPageDto> {
    return this.backups.list(query.page ?? 1, query.pageSize ?? DEFAULT_ADMIN_PAGE_SIZE);
  }
}
