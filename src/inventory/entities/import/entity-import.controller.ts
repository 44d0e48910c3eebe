import { Controller, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { FileProblemsResponseDto } from '../../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';
import type { StagedUpload } from '../../../platform/http/upload/staged-upload.engine.js';
import { UploadErrorsInterceptor } from '../../../platform/http/upload/upload-errors.interceptor.js';
import { EntityImportService, IMPORT_FILE_FIELD } from './entity-import.service.js';

/** Entities from a Homebox CSV file. */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntityImportController {
  constructor(private readonly imports: EntityImportService) {}

  @Post('import')
  @HttpCode(204)
  @UseInterceptors(UploadErrorsInterceptor, FileInterceptor(IMPORT_FILE_FIELD))
  @ApiOperation({
    summary: 'Import entities from a Homebox CSV file, all or nothing',
    description:
      'The multipart field `csv` holds a comma- or tab-separated file whose header names ' +
      '`HB.*` columns (Homebox’s CSV format, with its aliases `HB.labels`, `HB.purchase_time` ' +
      'and `HB.sold_time`; `HB.field.<name>` columns become text custom fields). Every row ' +
      'needs `HB.name` and `HB.location` (`A / B / C`): locations are matched by their name ' +
      'path and made when missing. A row describes a location itself when its `HB.url` is an ' +
      'exported location’s (`…/location/<id>`) or its location path and name is a path other ' +
      'rows name; a top-level location leaves `HB.location` empty, as does any exported row ' +
      '(one with an `HB.url`) of an entity at the top level. Tags ' +
      'are matched by name at any level and made at the top level when missing. A row whose ' +
      '`HB.import_ref` an entity of the group has replaces that entity (what the row leaves ' +
      'empty is reset, custom fields replaced, asset id kept unless given); ' +
      '`HB.parent_import_ref` puts the entity inside the one with that ref, in the file or ' +
      'in the group. Dates are YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339; booleans ' +
      'true/false/1/0/t/f; empty cells are empty, 0 or false. The file is checked whole ' +
      'first: if anything is wrong nothing is written and the 422 lists the problems with ' +
      'their line and column.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: [IMPORT_FILE_FIELD],
      properties: { [IMPORT_FILE_FIELD]: { type: 'string', format: 'binary' } },
    },
  })
  @ApiNoContentResponse({ description: 'Every row imported' })
  @ApiErrors(400, 413)
  @ApiResponse({
    status: 422,
    description:
      'The file has problems (nothing was imported): `problems` lists them with their line, ' +
      'column and reason; or no file was sent (`fields.csv`)',
    type: FileProblemsResponseDto,
  })
  importEntities(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: StagedUpload | undefined,
  ): Promise<void> {
    return this.imports.import(user, file);
  }
}
