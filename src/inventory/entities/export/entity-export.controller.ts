import { Controller, Get, Logger, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { ApiCsv, sendCsv } from '../../../platform/http/csv-download.js';
import { EntityExportsService } from './entity-exports.service.js';

/** `<scheme>://<host>` of the request; behind a trusted proxy, the forwarded ones. */
const origin = (request: Request): string => `${request.protocol}://${request.host}`;

/** The group's entities as CSV, for the import. */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntityExportController {
  private readonly logger = new Logger('EntityExportController');

  constructor(private readonly exports: EntityExportsService) {}

  @Get('export')
  @ApiOperation({
    summary: 'Every entity of the group as CSV, for the import (locations and archived included)',
    description:
      'Columns `HB.purchase_date` … `HB.lifetime_warranty`, then `HB.field.<name>` per custom ' +
      'field name of the group (sorted). Dates `YYYY-MM-DD`, `HB.location` the path from the top ' +
      '(` / `; above a parent item, whose import ref is `HB.parent_import_ref`), tags joined ' +
      'with `; `, `HB.url` a link to the web UI. Streamed; the file is named ' +
      '`homebox-entities_<YYYY-MM-DD_HH-MM-SS>.csv` (UTC).',
  })
  @ApiCsv('The CSV file, a header row and one row per entity')
  async exportEntities(
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const download = await this.exports.exportEntities(user, origin(request));
    await sendCsv(response, download, this.logger);
  }
}
