import { Controller, Get, Logger, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { ApiCsv, sendCsv } from '../../../platform/http/csv-download.js';
import { EntityExportsService } from './entity-exports.service.js';

@ApiTags('reporting')
@ApiAuth()
@Controller('reporting')
export class ReportingController {
  private readonly logger = new Logger('ReportingController');

  constructor(private readonly exports: EntityExportsService) {}

  @Get('bill-of-materials')
  @ApiOperation({
    summary: 'Bill of materials of the group as CSV: one row per entity',
    description:
      'Columns `Purchase Date, Name, Description, Manufacturer, Serial Number, Model Number, ' +
      'Quantity, Price, Total Price` (price × quantity); every entity of the group, locations ' +
      'and archived ones included. Streamed, as `bill-of-materials.csv`.',
  })
  @ApiCsv('The CSV file, a header row and one row per entity')
  async getBillOfMaterials(
    @CurrentUser() user: AuthUser,
    @Res() response: Response,
  ): Promise<void> {
    await sendCsv(response, await this.exports.billOfMaterials(user), this.logger);
  }
}
