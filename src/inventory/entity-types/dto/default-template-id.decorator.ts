import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsUUID, ValidateIf } from 'class-validator';

/** The zero UUID, which Homebox clients send for "no template". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * `defaultTemplateId` of a create or update body: a template id, or null to have none. The empty
 * string (what the summary view shows for "none") and the zero UUID also mean none, so a client
 * can send back what it read.
 */
export const DefaultTemplateIdField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description:
        'A template of the group; omitted, null, "" or the zero UUID mean no default template',
    }),
    Transform(({ value }: { value: unknown }) =>
      value === '' || value === NIL_UUID ? null : value,
    ),
    ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null),
    IsUUID('all', { message: 'defaultTemplateId must be a UUID' }),
  );
