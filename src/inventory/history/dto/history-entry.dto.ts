import { ApiProperty } from '@nestjs/swagger';
import {
  ACTOR_TYPES,
  HISTORY_ACTIONS,
  type ActorType,
  type HistoryAction,
} from '../entity-history.record.js';

export class HistoryApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The key’s name when the change was made' })
  name: string;
}

/** Who made a change, as it was when they made it. */
export class HistoryActorDto {
  @ApiProperty({
    enum: ACTOR_TYPES,
    enumName: 'HistoryActorType',
    description:
      'user: a signed-in user; sso: a user signed in through single sign-on; apiKey: an API ' +
      'key of the user; system: Trove itself (a scheduled job, a collection restore)',
  })
  type: ActorType;

  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The user; null for the system',
  })
  id: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'The user’s name then' })
  name: string | null;

  @ApiProperty({
    type: HistoryApiKeyDto,
    nullable: true,
    description: 'The API key used, if one was',
  })
  apiKey: HistoryApiKeyDto | null;

  @ApiProperty({ nullable: true, type: String, description: 'The SSO issuer, for sso' })
  issuer: string | null;
}

/** One field's value before and after a change; null where there was none. */
export class HistoryChangeDto {
  @ApiProperty({
    description:
      'The entity’s field as the API names it (`name`, `parentId`, `tagIds`, …), ' +
      '`fields.<name>` for a custom field, `attachments.<id>` for an attachment, ' +
      '`stock.<name>` for stock settings, `stock.adjustments.<id>` for a stock adjustment ' +
      '(quantity before and after, reason), `checkouts.<id>` for a check-out',
    example: 'quantity',
  })
  field: string;

  @ApiProperty({ description: 'Any JSON value, or null', example: 4 })
  before: unknown;

  @ApiProperty({ description: 'Any JSON value, or null', example: 2 })
  after: unknown;
}

/** An entity's changes made by one operation. */
export class HistoryEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  entityId: string;

  @ApiProperty({ description: 'The entity’s name after the change (before it, for a delete)' })
  entityName: string;

  @ApiProperty({ enum: HISTORY_ACTIONS, enumName: 'HistoryAction' })
  action: HistoryAction;

  @ApiProperty({
    description: 'The API operation, `<METHOD> <path>`, or `system`',
    example: 'PUT /api/v1/entities/{id}',
  })
  operation: string;

  @ApiProperty({ format: 'date-time' })
  changedAt: string;

  @ApiProperty({ type: HistoryActorDto })
  actor: HistoryActorDto;

  @ApiProperty({ type: [HistoryChangeDto], description: 'By field name' })
  changes: HistoryChangeDto[];
}

export class HistoryPageDto {
  @ApiProperty()
  page: number;

  @ApiProperty()
  pageSize: number;

  @ApiProperty({ description: 'Entries in all' })
  total: number;

  @ApiProperty({ type: [HistoryEntryDto], description: 'Newest first' })
  items: HistoryEntryDto[];
}
