import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
import { EntityFieldRecord } from './entity-field.record.js';
import { COPY_FIELDS } from './entity.sql.js';

/** The stored values of one custom field of an entity. */
export type EntityFieldValues = Pick<
  EntityFieldRecord,
  'type' | 'name' | 'textValue' | 'numberValue' | 'booleanValue' | 'position'
> &
  Partial<Pick<EntityFieldRecord, 'description' | 'timeValue'>>;

/**
 * The writes of the `entity_fields` table (custom fields of an entity), one entity at a time;
 * the views read the fields with the entities they show.
 */
@Injectable()
export class EntityFieldRepository {
  constructor(private readonly db: Database) {}

  findFields(entityId: string): Promise<EntityFieldRecord[]> {
    return this.db.repository(EntityFieldRecord).find({ where: { entityId } });
  }

  async insertFields(entityId: string, fields: EntityFieldValues[]): Promise<void> {
    if (fields.length === 0) return;
    await this.db
      .repository(EntityFieldRecord)
      .insert(fields.map((field) => ({ ...field, entityId })));
  }

  async updateField(entityId: string, id: string, values: EntityFieldValues): Promise<void> {
    await this.db.repository(EntityFieldRecord).update({ id, entityId }, values);
  }

  async deleteFields(entityId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .repository(EntityFieldRecord)
      .createQueryBuilder()
      .delete()
      .where('entity_id = :entityId AND id IN (:...ids)', { entityId, ids })
      .execute();
  }

  async copyFields(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.db.query(COPY_FIELDS, [fromEntityId, toEntityId]);
  }
}
