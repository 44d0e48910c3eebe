import { createHash } from 'node:crypto';
import { Body, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { Roles } from '../../identity/auth/decorators/roles.decorator.js';
import {
  BulkEntityChangeDto,
  MAX_BULK_IDS,
} from '../../inventory/entities/bulk/dto/bulk-entity-change.dto.js';
import { EntityBulkService } from '../../inventory/entities/bulk/entity-bulk.service.js';
import type {
  EntityChildSummaryDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from '../../inventory/entities/views/dto/entity-summary.dto.js';
import type { ListEntitiesQueryDto } from '../../inventory/entities/views/dto/list-entities.query.dto.js';
import { EntityViewsService } from '../../inventory/entities/views/entity-views.service.js';
import type { TagSummaryDto } from '../../inventory/tags/dto/tag-summary.dto.js';
import { TagsService } from '../../inventory/tags/tags.service.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { Page } from '../pages/page.decorator.js';
import {
  choiceHref,
  choosePage,
  CONSOLE_BULK_ACTIONS,
  previewPage,
  resultPage,
  SETTABLE_FIELDS,
  type BulkChangeForm,
  type BulkChoice,
  type ConsoleBulkAction,
  renderLocationOptions,
  type LocationOption,
  type PreviewRow,
  type SettableField,
} from './bulk.views.js';
import type { SafeHtml } from '../pages/page-html.js';
import { CONSOLE_PATHS, withQuery } from './console-layout.js';
import { ConsoleFrames } from './console-frames.service.js';
import { checked, formValues, type FormValues } from './console-forms.js';
import { pageNumber } from './desk.controller.js';

/** The groups whose rendered locations are kept (the most recently asked about). */
const RENDERED_LOCATION_GROUPS = 64;

/** A group's locations at one version of its tree, as a list and as rendered options. */
interface RenderedLocations {
  etag: string | undefined;
  list: LocationOption[];
  options: SafeHtml;
}

/** Entities the choose page lists at once. */
const CHOOSE_PAGE_SIZE = 50;
/** Entities a preview page shows at once. */
const PREVIEW_PAGE_SIZE = 100;

const NUMBER_FIELDS: readonly SettableField[] = ['quantity', 'purchasePrice', 'soldPrice'];
const BOOLEAN_FIELDS: readonly SettableField[] = ['insured', 'lifetimeWarranty'];
const DATE_FIELDS: readonly SettableField[] = ['warrantyExpires', 'purchaseDate', 'soldDate'];

/** Every text of a field given once or more (a query's or a form's), trimmed, empty ones left out. */
function listOf(source: Record<string, unknown>, name: string): string[] {
  const value = source[name];
  const list: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

const uuids = (field: string, values: string[]): string[] => {
  const wrong = values.find((value) => !isUUID(value, 'all'));
  if (wrong !== undefined) {
    throw ValidationFailedException.forField(field, `${field} must be UUIDs: ${wrong} is not one`);
  }
  return [...new Set(values.map((value) => value.toLowerCase()))];
};

/** The filters of a choice, from the choose page's query or a posted form. */
function readChoice(source: Record<string, unknown>): BulkChoice {
  const q = listOf(source, 'q').at(-1) ?? '';
  if (q.length > 255)
    throw ValidationFailedException.forField('q', 'q must be 255 characters or fewer');
  const locations = uuids('location', listOf(source, 'location'));
  if (locations.length > 1) {
    throw ValidationFailedException.forField('location', 'location must be one location');
  }
  return {
    q,
    tags: uuids('tags', listOf(source, 'tags')),
    location: locations[0] ?? '',
    archived: listOf(source, 'archived').length > 0,
  };
}

/** The list query of a choice: the same filters as `GET /entities`, for items. */
const listQuery = (choice: BulkChoice): ListEntitiesQueryDto => ({
  q: choice.q === '' ? undefined : choice.q,
  tags: choice.tags.length > 0 ? choice.tags : undefined,
  parentIds: choice.location === '' ? undefined : [choice.location],
  includeArchived: choice.archived,
});

/** A digest of a set of ids: the same for the same entities, whatever their order. */
const fingerprintOf = (ids: string[]): string =>
  createHash('sha256')
    .update([...ids].sort().join(','))
    .digest('base64url')
    .slice(0, 22);

/** The locations of the tree, each after the one it is in, with its depth. */
function flatten(nodes: EntityTreeNodeDto[], depth = 0, into: LocationOption[] = []) {
  for (const node of nodes) {
    into.push({ id: node.id, name: node.name, depth });
    flatten(node.children, depth + 1, into);
  }
  return into;
}

/** A value as the preview shows it: yes or no, "(none)" for nothing. */
function shown(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') {
    return value === '' ? '(none)' : String(value);
  }
  return '(none)';
}

/** What the change does to one entity, and the bulk API's argument for it. */
interface ReadChange {
  form: BulkChangeForm;
  argument: Partial<Pick<BulkEntityChangeDto, 'parentId' | 'tagIds' | 'fields'>>;
  /** In words, for the preview ("Move to Garage"). */
  summary: string;
  /** What it did, after the count ("moved to Garage"). */
  done: string;
  aspect: string;
  /** Before and after for one entity (a full summary for setFields). */
  row: (entity: EntityChildSummaryDto) => PreviewRow;
  /** Where to look at the entities afterwards. */
  next?: { location?: string; tag?: string };
}

/**
 * Bulk changes (`/console/bulk`): choose entities by words, tags and location (all that match,
 * or ticked ones), preview what a change does to each, and apply it through the same service as
 * `POST /entities/bulk` (all or nothing, at most 1000 entities), then see what it did. Owners and
 * users only: a viewer changes nothing, so the pages are not theirs.
 */
@Page('console/bulk')
@Roles('owner', 'user')
export class BulkController {
  private readonly renderedLocations = new Map<string, RenderedLocations>();

  constructor(
    private readonly frames: ConsoleFrames,
    private readonly views: EntityViewsService,
    private readonly tags: TagsService,
    private readonly bulk: EntityBulkService,
  ) {}

  @Get()
  async choose(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const choice = readChoice(query);
    const [frame, tags, locations, page] = await Promise.all([
      this.frames.of(user),
      this.tags.list(user),
      this.locationsOfTree(user),
      this.views.list(user, {
        ...listQuery(choice),
        page: pageNumber(query.page),
        pageSize: CHOOSE_PAGE_SIZE,
      }),
    ]);
    return choosePage(frame, {
      choice,
      tags,
      locationOptions: locations.options,
      page: page.value(),
      most: MAX_BULK_IDS,
    });
  }

  @Post('preview')
  @HttpCode(200)
  async preview(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<string> {
    const source = (body ?? {}) as Record<string, unknown>;
    return this.previewOf(user, source, pageNumber(formValues(body).page));
  }

  @Post('apply')
  async apply(
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<string | undefined> {
    const source = (body ?? {}) as Record<string, unknown>;
    const form = formValues(body);
    const choice = readChoice(source);
    const chosen = this.chosenIds(source);
    const change = await this.readChange(user, form);
    const ids = await this.resolve(user, choice, chosen);
    const previewed = Number(form.count);
    if (ids.length !== previewed || fingerprintOf(ids) !== form.fingerprint) {
      response.status(409);
      const now = ids.length > MAX_BULK_IDS ? `more than ${MAX_BULK_IDS}` : String(ids.length);
      return this.previewOf(user, source, 1, {
        ids,
        changed:
          `The choice changed since the preview (${Number.isInteger(previewed) ? previewed : 'none'} ` +
          `then, ${now} now, or other entities): nothing was changed. Check this preview and apply again.`,
      });
    }
    const dto = await checked(BulkEntityChangeDto, {
      ids,
      action: change.form.action,
      ...change.argument,
    });
    const { updated } = await this.bulk.apply(user, dto);
    response.redirect(
      303,
      withQuery(`${CONSOLE_PATHS.bulk}/result`, {
        done: change.done,
        chosen: ids.length,
        updated,
        location: change.next?.location,
        tag: change.next?.tag,
      }),
    );
    return undefined;
  }

  @Get('result')
  async result(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const count = (value: unknown): number => {
      const number = typeof value === 'string' ? Number(value) : NaN;
      return Number.isInteger(number) && number >= 0 && number <= MAX_BULK_IDS ? number : 0;
    };
    const what = typeof query.done === 'string' ? query.done.slice(0, 300) : 'changed';
    const updated = count(query.updated);
    const location = listOf(query, 'location').find((id) => isUUID(id, 'all'));
    const tag = listOf(query, 'tag').find((id) => isUUID(id, 'all'));
    const choice = (over: Partial<BulkChoice>): string =>
      choiceHref({ q: '', tags: [], location: '', archived: true, ...over });
    const next =
      location !== undefined
        ? { href: choice({ location }), label: 'See what is in that location now' }
        : tag !== undefined
          ? { href: choice({ tags: [tag] }), label: 'See what carries that tag now' }
          : undefined;
    return resultPage(await this.frames.of(user), {
      done: `${updated} ${what}`,
      chosen: count(query.chosen),
      updated,
      next,
    });
  }

  /** The preview of a posted choice and change, at `page` of its rows. */
  private async previewOf(
    user: AuthUser,
    source: Record<string, unknown>,
    page: number,
    again?: { ids: string[]; changed: string },
  ): Promise<string> {
    const form = formValues(source);
    const choice = readChoice(source);
    const chosen = this.chosenIds(source);
    const change = await this.readChange(user, form);
    const ids = again?.ids ?? (await this.resolve(user, choice, chosen));
    const count = ids.length;
    if (count > 0) {
      // The change is checked as the API checks it, before anything is shown as to be done.
      await checked(BulkEntityChangeDto, {
        ids: ids.slice(0, MAX_BULK_IDS),
        action: change.form.action,
        ...change.argument,
      });
    }
    const last = Math.max(1, Math.ceil(Math.min(count, MAX_BULK_IDS) / PREVIEW_PAGE_SIZE));
    const at = Math.min(page, last);
    const pageIds = ids.slice((at - 1) * PREVIEW_PAGE_SIZE, at * PREVIEW_PAGE_SIZE);
    const entities = await this.entitiesOf(user, pageIds, change.form.action === 'setFields');
    return previewPage(await this.frames.of(user), {
      choice,
      ids: chosen,
      change: change.form,
      summary: change.summary,
      aspect: change.aspect,
      count,
      fingerprint: fingerprintOf(ids),
      rows: entities.map(change.row),
      page: at,
      pageSize: PREVIEW_PAGE_SIZE,
      most: MAX_BULK_IDS,
      changed: again?.changed,
    });
  }

  /** The ticked ids of a hand-made choice, or undefined when all that match are chosen. */
  private chosenIds(source: Record<string, unknown>): string[] | undefined {
    if (listOf(source, 'selection').at(-1) !== 'chosen') return undefined;
    const ids = uuids('ids', listOf(source, 'ids'));
    if (ids.length === 0) {
      throw ValidationFailedException.forField(
        'ids',
        'tick at least one entity, or preview all that match',
      );
    }
    if (ids.length > MAX_BULK_IDS) {
      throw ValidationFailedException.forField(
        'ids',
        `a bulk change takes at most ${MAX_BULK_IDS} entities`,
      );
    }
    return ids;
  }

  /**
   * The ids of the group's entities the choice matches (of the ticked ones, when there are),
   * in name order: at most one more than a change takes, so that too many is known.
   */
  private resolve(user: AuthUser, choice: BulkChoice, chosen?: string[]): Promise<string[]> {
    return this.views.matchingIds(user, listQuery(choice), MAX_BULK_IDS + 1, chosen);
  }

  /** The views of these entities of the group, in this order (full summaries with `full`). */
  private async entitiesOf(
    user: AuthUser,
    ids: string[],
    full: boolean,
  ): Promise<EntityChildSummaryDto[]> {
    if (full) {
      return Promise.all(ids.map(async (id) => (await this.views.get(user, id)).value()));
    }
    const views = await this.views.childSummaries(user.groupId, ids);
    return views.map((view) => JSON.parse(view) as EntityChildSummaryDto);
  }

  private async locations(user: AuthUser): Promise<LocationOption[]> {
    return (await this.locationsOfTree(user)).list;
  }

  /**
   * The group's locations, flattened and rendered as options once per version of its location
   * tree (the tree's ETag), kept for the groups most recently asked about.
   */
  private async locationsOfTree(user: AuthUser): Promise<RenderedLocations> {
    const tree = await this.views.tree(user, false);
    const kept = this.renderedLocations.get(user.groupId);
    if (kept !== undefined && tree.etag !== undefined && kept.etag === tree.etag) return kept;
    const list = flatten(tree.value());
    const rendered = { etag: tree.etag, list, options: renderLocationOptions(list) };
    this.renderedLocations.delete(user.groupId);
    this.renderedLocations.set(user.groupId, rendered);
    if (this.renderedLocations.size > RENDERED_LOCATION_GROUPS) {
      this.renderedLocations.delete(this.renderedLocations.keys().next().value!);
    }
    return rendered;
  }

  /** The posted change, its argument for the bulk API, and how it reads. */
  private async readChange(user: AuthUser, form: FormValues): Promise<ReadChange> {
    const action = form.action as ConsoleBulkAction;
    if (!Object.hasOwn(CONSOLE_BULK_ACTIONS, action)) {
      throw ValidationFailedException.forField(
        'action',
        `action must be one of ${Object.keys(CONSOLE_BULK_ACTIONS).join(', ')}`,
      );
    }
    const value = form.value ?? '';
    const changeForm: BulkChangeForm = {
      action,
      parentId: form.parentId ?? '',
      tagId: form.tagId ?? '',
      field: form.field ?? '',
      value,
    };
    const hasTag = (entity: EntityChildSummaryDto, id: string): boolean =>
      entity.tags.some((tag) => tag.id === id);
    const tagList = (tags: { name: string }[]): string =>
      tags.length === 0 ? '(none)' : tags.map((tag) => tag.name).join(', ');
    switch (action) {
      case 'move': {
        const target = (await this.locations(user)).find(
          (location) => location.id === changeForm.parentId.toLowerCase(),
        );
        if (target === undefined) {
          throw ValidationFailedException.forField(
            'parentId',
            'choose a location of the group to move to',
          );
        }
        return {
          form: changeForm,
          argument: { parentId: target.id },
          summary: `Move to ${target.name}`,
          done: `moved to ${target.name}`,
          aspect: 'In',
          row: (entity) => ({
            entity,
            before: entity.parent?.name ?? '(top level)',
            after: target.name,
            unchanged: entity.parent?.id === target.id,
          }),
          next: { location: target.id },
        };
      }
      case 'addTags':
      case 'removeTags': {
        const tag = await this.tagOf(user, changeForm.tagId);
        const adding = action === 'addTags';
        return {
          form: changeForm,
          argument: { tagIds: [tag.id] },
          summary: adding ? `Add the tag ${tag.name}` : `Remove the tag ${tag.name}`,
          done: adding ? `tagged ${tag.name}` : `untagged ${tag.name}`,
          aspect: 'Tags',
          row: (entity) => {
            const has = hasTag(entity, tag.id);
            const after = adding
              ? has
                ? entity.tags
                : [...entity.tags, tag]
              : entity.tags.filter((each) => each.id !== tag.id);
            return {
              entity,
              before: tagList(entity.tags),
              after: tagList(after),
              unchanged: adding === has,
            };
          },
          next: { tag: tag.id },
        };
      }
      case 'archive':
      case 'unarchive': {
        const archiving = action === 'archive';
        return {
          form: changeForm,
          argument: {},
          summary: archiving ? 'Archive' : 'Unarchive',
          done: archiving ? 'archived' : 'unarchived',
          aspect: 'Archived',
          row: (entity) => ({
            entity,
            before: shown(entity.archived),
            after: shown(archiving),
            unchanged: entity.archived === archiving,
          }),
        };
      }
      case 'setFields': {
        const field = changeForm.field as SettableField;
        if (!SETTABLE_FIELDS.includes(field)) {
          throw ValidationFailedException.forField('field', 'choose the field to set');
        }
        const set = settableValue(field, value);
        return {
          form: changeForm,
          argument: { fields: { [field]: set } },
          summary: `Set ${field} to ${shown(set)}`,
          done: `set ${field} to ${shown(set)}`,
          aspect: field,
          row: (entity) => {
            const before = shown((entity as EntitySummaryDto)[field]);
            return { entity, before, after: shown(set), unchanged: before === shown(set) };
          },
        };
      }
    }
  }

  private async tagOf(user: AuthUser, id: string): Promise<TagSummaryDto> {
    const tag = (await this.tags.list(user)).find((each) => each.id === id.toLowerCase());
    if (tag === undefined) {
      throw ValidationFailedException.forField('tagId', 'choose a tag of the group');
    }
    return tag;
  }
}

/**
 * A field's value as the bulk API takes it: numbers and yes or no as such (text that is none
 * stays text, which the validation then names), an empty day as none.
 */
function settableValue(field: SettableField, text: string): unknown {
  const value = text.trim();
  if (NUMBER_FIELDS.includes(field)) return value === '' ? value : Number(value);
  if (BOOLEAN_FIELDS.includes(field)) {
    const word = value.toLowerCase();
    return ['yes', 'true'].includes(word) ? true : ['no', 'false'].includes(word) ? false : value;
  }
  if (DATE_FIELDS.includes(field)) return value === '' ? null : value;
  return text;
}
