import { ApiProperty } from '@nestjs/swagger';

/** The multipart form of POST /group/import. Documentation only: the file is read as staged. */
export class ImportBackupDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'A collection backup zip: Trove’s own (`trove-1`) or a Homebox export',
  })
  file: unknown;
}
