import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  StreamableFile,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { StagedUpload } from '../../platform/http/upload/staged-upload.engine.js';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { GroupExportDto, GroupExportListDto } from './dto/group-export.dto.js';
import { ImportBackupDto } from './dto/import-backup.dto.js';
import { GroupExportsService } from './group-exports.service.js';

/** Collection backups: exports to download, and imports of a backup into an empty collection. */
@ApiTags('group-exports')
@ApiAuth()
@Controller('group')
export class GroupExportsController {
  constructor(private readonly exports: GroupExportsService) {}

  @Post('exports')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Start a backup export of the collection',
    description:
      'Queues a job that writes a zip of the collection (manifest, one JSON file per table, ' +
      'every attachment file); poll it, or watch `export.mutation` on the change feed.',
  })
  @ApiAcceptedResponse({ type: GroupExportDto })
  createExport(@CurrentUser() user: AuthUser): Promise<GroupExportDto> {
    return this.exports.createExport(user);
  }

  @Get('exports')
  @ApiOperation({ summary: 'Backup exports and imports of the collection, newest first' })
  @ApiOkResponse({ type: GroupExportListDto })
  listExports(@CurrentUser() user: AuthUser): Promise<GroupExportListDto> {
    return this.exports.list(user);
  }

  @Get('exports/:id')
  @ApiOperation({ summary: 'A backup export or import' })
  @ApiUuidParam('id', 'Export id')
  @ApiOkResponse({ type: GroupExportDto })
  @ApiErrors(400, 404)
  getExport(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<GroupExportDto> {
    return this.exports.get(user, id);
  }

  @Get('exports/:id/download')
  @ApiOperation({
    summary: 'Download a completed export',
    description: '`409 export not ready` until the export has completed.',
  })
  @ApiUuidParam('id', 'Export id')
  @ApiProduces('application/zip')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' }, description: 'The backup zip' })
  @ApiErrors(400, 404, 409)
  async downloadExport(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<StreamableFile> {
    const download = await this.exports.download(user, id);
    return new StreamableFile(download.body, {
      type: 'application/zip',
      disposition: `attachment; filename="${download.fileName}"`,
      length: download.size,
    });
  }

  @Delete('exports/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a backup export or import, and its zip',
    description: 'Idempotent: an unknown id is also answered 204.',
  })
  @ApiUuidParam('id', 'Export id')
  @ApiNoContentResponse()
  @ApiErrors(400)
  deleteExport(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.exports.remove(user, id);
  }

  @Post('import')
  @HttpCode(202)
  @UseInterceptors(FileInterceptor('file'))
  @ApiOperation({
    summary: 'Restore a backup zip into the collection',
    description:
      'Owners only, not in demo mode. The collection must be empty apart from its seed data (no ' +
      'items, at most 8 locations, 6 tags and 2 entity types, no templates, no notifiers), ' +
      'else 409. The zip (Trove’s own, schema `trove-1`, or a Homebox export) is checked whole ' +
      'before anything is written: entry names must be safe relative paths, it may expand to ' +
      'at most 100 times its size, and its schema version must be known. A job then wipes the ' +
      'seed data and restores everything with new ids, all or nothing.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ImportBackupDto })
  @ApiAcceptedResponse({ type: GroupExportDto })
  @ApiErrors(400, 403, 409, 413)
  importBackup(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: StagedUpload | undefined,
  ): Promise<GroupExportDto> {
    return this.exports.createImport(user, file);
  }
}
