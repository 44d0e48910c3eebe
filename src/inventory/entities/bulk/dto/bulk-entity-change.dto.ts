import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsUUID,
  isUUID,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { IfPresent } from '../../../../platform/http/validation/if-present.decorator.js';
import { UpdateEntityDto } from '../../core/dto/update-entity.dto.js';

/** What a bulk change does to every entity it names. */
export const BULK_ACTIONS = [
  'move',
  'addTags',
  'removeTags',
  'archive',
  'unarchive',
  'setFields',
  'delete',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most entities (and tags) one bulk change names. */
export const MAX_BULK_IDS = 1000;

/** The arguments a bulk change may carry besides `ids` and `action`. */
export type BulkArgument = 'parentId' | 'tagIds' | 'fields';

/** The one argument each action needs; the others take none. */
export const ARGUMENT_OF: Readonly<Record<BulkAction, BulkArgument | undefined>> = {
  move: 'parentId',
  addTags: 'tagIds',
  removeTags: 'tagIds',
  archive: undefined,
  unarchive: undefined,
  setFields: 'fields',
  delete: undefined,
};

/** The attributes `setFields` sets as the update body validates them. */
const UPDATE_BODY_FIELDS = [
  'description',
  'quantity',
  'manufacturer',
  'modelNumber',
  'serialNumber',
  'insured',
  'lifetimeWarranty',
  'warrantyExpires',
  'warrantyDetails',
  'purchaseFrom',
  'purchaseDate',
  'purchasePrice',
  'soldTo',
  'soldDate',
  'soldPrice',
  'soldNotes',
  'notes',
] as const;

/** The entity attributes `setFields` may set, as the create and update bodies name them. */
export const BULK_FIELD_NAMES = [...UPDATE_BODY_FIELDS, 'entityTypeId'] as const;
export type BulkFieldName = (typeof BULK_FIELD_NAMES)[number];

const actionsTaking = (argument: BulkArgument): BulkAction[] =>
  BULK_ACTIONS.filter((action) => ARGUMENT_OF[action] === argument);

const actionOf = (args: ValidationArguments): unknown =>
  (args.object as { action?: unknown }).action;

/**
 * The property is the argument of the action given, and is present when the action needs it:
 * `tagIds` with `archive` is refused, and so is `addTags` without `tagIds`. Validated whenever
 * the property is present or the action needs it.
 */
function ArgumentOfAction(argument: BulkArgument): PropertyDecorator {
  const takers = actionsTaking(argument);
  const needed = (action: unknown): boolean => takers.includes(action as BulkAction);
  return (target: object, property: string | symbol) => {
    ValidateIf(
      (dto: { action?: unknown }, value: unknown) => value !== undefined || needed(dto.action),
    )(target, property);
    ValidateBy({
      name: 'bulkArgument',
      validator: {
        validate: (value: unknown, args?: ValidationArguments): boolean =>
          args !== undefined && needed(actionOf(args)) && value !== undefined,
        defaultMessage: (args?: ValidationArguments): string => {
          const action = args ? actionOf(args) : undefined;
          if (!needed(action)) {
            return `${argument} is an argument of ${takers.join(' and ')} only, not of ${String(action)}`;
          }
          return argument === 'parentId'
            ? `parentId is required for move: an entity id, or null for the top level`
            : `${argument} is required for ${String(action)}`;
        },
      },
    })(target, property);
  };
}

/**
 * A list of 1 to 1000 UUIDs; the message names the first entry that is not one. Absent passes
 * unless `required`.
 */
function UuidList(noun: string, required: boolean): PropertyDecorator {
  const problem = (value: unknown, property: string): string | undefined => {
    if (value === undefined && !required) return undefined;
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BULK_IDS) {
      return `${property} must be a list of 1 to ${MAX_BULK_IDS} ${noun} ids`;
    }
    const index = value.findIndex((id) => typeof id !== 'string' || !isUUID(id, 'all'));
    return index < 0 ? undefined : `${property}.${index} must be a UUID`;
  };
  return ValidateBy({
    name: 'uuidList',
    validator: {
      validate: (value: unknown, args?: ValidationArguments): boolean =>
        problem(value, args?.property ?? '') === undefined,
      defaultMessage: (args?: ValidationArguments): string =>
        problem(args?.value, args?.property ?? 'value') ?? 'invalid list',
    },
  });
}

/**
 * An object of the settable attributes only, setting at least one. Checked before the nested
 * validation strips what the fields DTO does not declare, so an unknown key is refused rather
 * than dropped.
 */
function SettableFields(): PropertyDecorator {
  const allowed = new Set<string>(BULK_FIELD_NAMES);
  const problem = (value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return 'fields must be an object of the attributes to set';
    }
    const unknown = Object.keys(value).filter((key) => !allowed.has(key));
    if (unknown.length > 0) {
      return `fields cannot set ${unknown.join(', ')}; ` + `only ${BULK_FIELD_NAMES.join(', ')}`;
    }
    if (!Object.values(value).some((entry) => entry !== undefined)) {
      return 'fields must set at least one attribute';
    }
    return undefined;
  };
  return ValidateBy({
    name: 'settableFields',
    validator: {
      validate: (value: unknown): boolean => problem(value) === undefined,
      defaultMessage: (args?: ValidationArguments): string =>
        problem(args?.value) ?? 'invalid fields',
    },
  });
}

const DATE_DOCUMENTATION = {
  type: String,
  nullable: true,
  description: 'YYYY-MM-DD, MM/DD/YYYY or RFC 3339; "" or null: none',
};

/**
 * The attributes `setFields` sets on every entity, each validated as the update body does; an
 * attribute left out keeps each entity's own value.
 */
export class BulkEntityFieldsDto extends PickType(UpdateEntityDto, UPDATE_BODY_FIELDS) {
  @ApiPropertyOptional({ format: 'uuid', description: 'An entity type of the group' })
  @IfPresent()
  @IsUUID('all')
  entityTypeId?: string;

  // The dates as documented here; their validation is the update body's, inherited.
  @ApiPropertyOptional({ ...DATE_DOCUMENTATION, example: '2027-01-31' })
  override warrantyExpires?: string | null;

  @ApiPropertyOptional({ ...DATE_DOCUMENTATION, example: '2026-01-31' })
  override purchaseDate?: string | null;

  @ApiPropertyOptional({ ...DATE_DOCUMENTATION, example: '2026-06-30' })
  override soldDate?: string | null;
}

/**
 * One change to many entities of the group at once: `ids` and an `action`, with the action's
 * one argument (`parentId` for move, `tagIds` for addTags and removeTags, `fields` for
 * setFields; none for archive, unarchive and delete).
 */
export class BulkEntityChangeDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_BULK_IDS,
    description: 'Entities of the group; an id given twice counts once',
  })
  @UuidList('entity', true)
  ids: string[];

  @ApiProperty({ enum: BULK_ACTIONS, enumName: 'BulkEntityAction' })
  @IsIn(BULK_ACTIONS)
  action: BulkAction;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'move: the new parent, an entity of the group that is none of `ids` nor inside one of ' +
      'them; null for the top level',
  })
  @ArgumentOfAction('parentId')
  @ValidateBy({
    name: 'uuidOrNull',
    validator: {
      validate: (value: unknown): boolean =>
        value === undefined ||
        value === null ||
        (typeof value === 'string' && isUUID(value, 'all')),
      defaultMessage: (): string => 'parentId must be a UUID or null',
    },
  })
  parentId?: string | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_BULK_IDS,
    description: 'addTags and removeTags: tags of the group',
  })
  @ArgumentOfAction('tagIds')
  @UuidList('tag', false)
  tagIds?: string[];

  @ApiPropertyOptional({
    type: BulkEntityFieldsDto,
    description: 'setFields: the attributes to set on every entity, at least one',
  })
  @ArgumentOfAction('fields')
  @SettableFields()
  @ValidateNested()
  @Type(() => BulkEntityFieldsDto)
  fields?: BulkEntityFieldsDto;
}

/** What a bulk change did. */
export class BulkEntityChangeResultDto {
  @ApiProperty({
    example: 200,
    description:
      'How many of the entities the action changed: those it moved, tagged, untagged, ' +
      'archived, unarchived, set a different value on, or deleted; entities already so are ' +
      'not counted',
  })
  updated: number;
}
