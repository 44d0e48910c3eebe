import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { COPY_ATTACHMENTS } from './attachment.sql.js';

/** Reads and writes the `attachments` table. */
@Injectable()
export class AttachmentRepository {
  constructor(private readonly db: Database) {}

  /** Copies the attachments of one entity (not their thumbnails) to another. */
  async copyAll(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.db.query(COPY_ATTACHMENTS, [fromEntityId, toEntityId]);
  }
}
