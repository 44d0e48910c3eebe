import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, Not } from 'typeorm';
import { AttachmentRecord } from '../attachments/attachment.record.js';
import type { EntityChildSummaryDto, EntitySummaryDto } from './dto/entity-summary.dto.js';
import { EntityFieldRecord } from './entity-field.record.js';
import { toEntityChildSummary, toEntitySummary, type EntityContext } from './entity.mapper.js';
import { EntityRecord } from './entity.record.js';

/** Relations every shown entity needs: its type (with default template) and tags. */
export const ENTITY_VIEW_RELATIONS = { entityType: { defaultTemplate: true }, tags: true } as const;

/**
 * Builds the views of entities with a fixed number of queries however many are shown: one
 * recursive query for all ancestors, one load of the records, one for photos and one for item
 * counts. The group is part of every query.
 */
@Injectable()
export class EntityViewsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Child summaries of the given entities of the group, in the order given (unknown ids dropped). */
  async childSummaries(
    groupId: string,
    ids: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntityChildSummaryDto[]> {
    if (ids.length === 0) return [];
    const context = await this.loadContext(manager, groupId, ids);
    return ids
      .map((id) => context.ancestors.get(id))
      .filter((record): record is EntityRecord => record !== undefined)
      .map((record) => toEntityChildSummary(record, context));
  }

  /** The summary view of one entity of the group, or 404. */
  async summary(
    groupId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntitySummaryDto> {
    const children = await manager.find(EntityRecord, {
      where: { groupId, parentId: id, entityType: { isLocation: true } },
      relations: ENTITY_VIEW_RELATIONS,
      order: { name: 'ASC', id: 'ASC' },
    });
    const context = await this.loadContext(
      manager,
      groupId,
      [id],
      children.map((child) => child.id),
    );
    const record = context.ancestors.get(id);
    if (!record) throw new NotFoundException(`entity ${id} not found`);
    for (const child of children) context.ancestors.set(child.id, child);
    const [fields, attachments] = await Promise.all([
      manager.find(EntityFieldRecord, {
        where: { entityId: id },
        order: { createdAt: 'ASC', name: 'ASC', id: 'ASC' },
      }),
      manager.find(AttachmentRecord, {
        where: { entityId: id, type: Not('thumbnail') },
        relations: { thumbnail: true },
        order: { createdAt: 'ASC', id: 'ASC' },
      }),
    ]);
    return toEntitySummary(record, context, { children, fields, attachments });
  }

  /**
   * Loads the entities, all their ancestors (records keyed by id in `ancestors`, which also
   * holds the entities themselves), and the photos and item counts of all of them plus `extra`.
   */
  private async loadContext(
    manager: EntityManager,
    groupId: string,
    ids: string[],
    extra: string[] = [],
  ): Promise<EntityContext> {
    const chain: { id: string }[] = await manager.query(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT e.id, e.parent_id, 0 FROM entities e WHERE e.id = ANY($1::uuid[]) AND e.group_id = $2
         UNION
         SELECT p.id, p.parent_id, c.depth + 1 FROM entities p
         JOIN chain c ON p.id = c.parent_id
         WHERE p.group_id = $2 AND c.depth < 1000
       )
       SELECT DISTINCT id FROM chain`,
      [ids, groupId],
    );
    const records = await manager.find(EntityRecord, {
      where: { groupId, id: In(chain.map((row) => row.id)) },
      relations: ENTITY_VIEW_RELATIONS,
    });
    const ancestors = new Map(records.map((record) => [record.id, record]));
    const all = [...ancestors.keys(), ...extra];
    // Item counts belong to locations only; the extra ids are child locations.
    const locations = [
      ...records.filter((record) => record.entityType?.isLocation).map((record) => record.id),
      ...extra,
    ];
    const [photos, counts] = await Promise.all([
      manager.query<{ entity_id: string; id: string; thumbnail_id: string | null }[]>(
        `SELECT DISTINCT ON (a.entity_id) a.entity_id, a.id, a.thumbnail_id FROM attachments a
         WHERE a.entity_id = ANY($1::uuid[]) AND a.type = 'photo' AND a."primary"
         ORDER BY a.entity_id, a.created_at`,
        [all],
      ),
      manager.query<{ id: string; total: number }[]>(
        `SELECT c.parent_id AS id, sum(c.quantity)::float8 AS total
         FROM entities c JOIN entity_types t ON t.id = c.entity_type_id
         WHERE c.parent_id = ANY($1::uuid[]) AND NOT c.archived AND NOT t.is_location
         GROUP BY c.parent_id`,
        [locations],
      ),
    ]);
    return {
      ancestors,
      photos: new Map(
        photos.map((row) => [row.entity_id, { imageId: row.id, thumbnailId: row.thumbnail_id }]),
      ),
      itemCounts: new Map(counts.map((row) => [row.id, row.total])),
    };
  }
}
