import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The one body of every error response. */
export class ErrorResponseDto {
  @ApiProperty({ example: 'entity 6f1c…: not found' })
  error: string;

  @ApiPropertyOptional({ description: 'Only on 500: quote it when reporting the problem.' })
  requestId?: string;
}

/** A 422: what is wrong with each field, keyed by its JSON name (nested as `fields.0.name`). */
export class ValidationErrorResponseDto {
  @ApiProperty({ example: 'Validation Error' })
  error: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { name: 'name must be shorter than or equal to 255 characters' },
  })
  fields: Record<string, string>;
}

/** One thing wrong in an uploaded file. */
export class FileProblemDto {
  @ApiProperty({ example: 3, description: 'Line of the file, from 1' })
  line: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'HB.purchase_date',
    description: 'The column header as written; null for the whole line or file',
  })
  column: string | null;

  @ApiProperty({
    example: '"31/02/2026" is not a date (YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339)',
  })
  reason: string;
}

/** A 422 for an uploaded file: every problem found, each with its line, column and reason. */
export class FileProblemsResponseDto extends ValidationErrorResponseDto {
  @ApiProperty({
    type: [FileProblemDto],
    description: 'The first problems found, in the order of the file (at most 100)',
  })
  problems: FileProblemDto[];

  @ApiProperty({ example: 1, description: 'How many problems were found in all' })
  problemCount: number;
}
