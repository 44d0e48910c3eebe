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
