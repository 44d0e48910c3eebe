import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { nameOrder } from '../../platform/database/name-order.js';
import { OwnedRepository } from '../../platform/database/owned.js';
import { TemplateFieldRecord } from './template-field.record.js';
import { TemplateRecord } from './template.record.js';

/** The stored values of one custom field of a template. */
export type TemplateFieldValues = Pick<
  TemplateFieldRecord,
  'type' | 'name' | 'textValue' | 'numberValue' | 'booleanValue' | 'timeValue' | 'position'
>;

/** Template fields as loaded for views: in the order they were last sent. */
const FIELD_ORDER = { fields: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } } as const;

/** The only code that reads or writes the `entity_templates` and `template_fields` tables. */
@Injectable()
export class TemplateRepository extends OwnedRepository<TemplateRecord> {
  constructor(db: Database) {
    super(db, TemplateRecord, 'template');
  }

  /** The group's templates, by name. */
  findAll(groupId: string): Promise<TemplateRecord[]> {
    return this.db
      .repository(TemplateRecord)
      .createQueryBuilder('t')
      .where('t.group_id = :groupId', { groupId })
      .orderBy(nameOrder('t'))
      .getMany();
  }

  /**
   * A template of the group with its fields in the order they were last sent and, with
   * `withLocation`, its default location; null when it is not one.
   */
  findWithFields(
    groupId: string,
    id: string,
    withLocation: boolean,
  ): Promise<TemplateRecord | null> {
    return this.db.repository(TemplateRecord).findOne({
      where: { id, groupId },
      relations: { defaultLocation: withLocation, fields: true },
      order: FIELD_ORDER,
    });
  }

  insert(values: Partial<TemplateRecord>): Promise<TemplateRecord> {
    const repository = this.db.repository(TemplateRecord);
    return repository.save(repository.create(values));
  }

  /** Changes a template of the group; sets `updated_at`. */
  async update(groupId: string, id: string, values: Partial<TemplateRecord>): Promise<void> {
    await this.db.repository(TemplateRecord).update({ id, groupId }, values);
  }

  /** Deletes a template of the group with its fields; whether there was one. */
  async delete(groupId: string, id: string): Promise<boolean> {
    const result = await this.db.repository(TemplateRecord).delete({ id, groupId });
    return (result.affected ?? 0) > 0;
  }

  findFields(templateId: string): Promise<TemplateFieldRecord[]> {
    return this.db.repository(TemplateFieldRecord).find({ where: { templateId } });
  }

  async insertField(templateId: string, values: TemplateFieldValues): Promise<void> {
    await this.db.repository(TemplateFieldRecord).insert({ ...values, templateId });
  }

  async updateField(templateId: string, id: string, values: TemplateFieldValues): Promise<void> {
    await this.db.repository(TemplateFieldRecord).update({ id, templateId }, values);
  }

  async deleteFields(templateId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .repository(TemplateFieldRecord)
      .createQueryBuilder()
      .delete()
      .where('template_id = :templateId AND id IN (:...ids)', { templateId, ids })
      .execute();
  }
}
