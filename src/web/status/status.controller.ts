import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity/auth/decorators/public.decorator.js';
import { StatusDto } from './dto/status.dto.js';
import { StatusService } from './status.service.js';

@ApiTags('status')
@Controller('status')
export class StatusController {
  constructor(private readonly statusService: StatusService) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Application info; needs no token' })
  @ApiOkResponse({ type: StatusDto })
  getStatus(): Promise<StatusDto> {
    return this.statusService.getStatus();
  }
}
