import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../../platform/database/advisory-lock.js';
import { Database } from '../../platform/database/database.js';
import { OwnedRepository } from '../../platform/database/owned.js';
import { EntityTypeRecord } from './entity-type.record.js';

export type EntityTypeValues = Pick<
  EntityTypeRecord,
  'groupId' | 'name' | 'isLocation' | 'icon' | 'description' | 'defaultTemplateId'
>;

export type EntityTypeChanges = Pick<
  EntityTypeRecord,
  'name' | 'isLocation' | 'icon' | 'defaultTemplateId'
> &
  Partial<Pick<EntityTypeRecord, 'description'>>;

/**
 * The only code that writes the `entity_types` table. It reads the entities and templates that
 * refer to a type, to answer whether it is in use and to check its default template.
 */
@Injectable()
export class EntityTypeRepository extends OwnedRepository<EntityTypeRecord> {
  constructor(db: Database) {
    super(db, EntityTypeRecord, 'entity type');
  }

  /** The group's types with their default templates, by name (then id). */
  findAll(groupId: string): Promise<EntityTypeRecord[]> {
    return this.db.repository(EntityTypeRecord).find({
      where: { groupId },
      relations: { defaultTemplate: true },
      order: { name: 'ASC', id: 'ASC' },
    });
  }

  /** The group's oldest type of a kind, with its default template. */
  findOldest(groupId: string, isLocation: boolean): Promise<EntityTypeRecord | null> {
    return this.db.repository(EntityTypeRecord).findOne({
      where: { groupId, isLocation },
      relations: { defaultTemplate: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Until the unit of work ends, no one else creates the group's default type of this kind. */
  lockDefault(groupId: string, isLocation: boolean): Promise<void> {
    return advisoryLock(this.db, `trove:default-entity-type:${groupId}:${isLocation}`);
  }

  insert(values: EntityTypeValues): Promise<EntityTypeRecord> {
    const repository = this.db.repository(EntityTypeRecord);
    return repository.save(repository.create(values));
  }

  /** Inserts several types at once, in the order given. */
  insertMany(values: EntityTypeValues[]): Promise<EntityTypeRecord[]> {
    const repository = this.db.repository(EntityTypeRecord);
    return repository.save(values.map((value) => repository.create(value)));
  }

  /** Whether a type of the group was there to change. */
  async update(groupId: string, id: string, changes: EntityTypeChanges): Promise<boolean> {
    const result = await this.db.repository(EntityTypeRecord).update({ id, groupId }, changes);
    return Boolean(result.affected);
  }

  async delete(groupId: string, id: string): Promise<void> {
    await this.db.repository(EntityTypeRecord).delete({ id, groupId });
  }

  /** How many entities (of any group) are of type `typeId`: a read of the entities' table. */
  async countEntitiesOfType(typeId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entities WHERE entity_type_id = $1',
      [typeId],
    );
    return row.count;
  }

  /**
   * Whether `templateId` is a template of the group; if so it is locked `FOR SHARE` until the
   * unit of work ends, so it cannot be deleted before the type that names it is stored.
   */
  async lockTemplateOfGroup(groupId: string, templateId: string): Promise<boolean> {
    if (!this.db.inTransaction) throw new Error('sharing a template needs a unit of work');
    const rows = await this.db.query<{ id: string }>(
      'SELECT id FROM entity_templates WHERE id = $1 AND group_id = $2 FOR SHARE',
      [templateId, groupId],
    );
    return rows.length > 0;
  }

  /** Deletes every type of the group; no entity may use them. */
  async deleteAllOfGroup(groupId: string): Promise<void> {
    await this.db.query('DELETE FROM entity_types WHERE group_id = $1', [groupId]);
  }
}
