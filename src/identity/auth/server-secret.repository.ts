import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { ServerSecretRecord } from './server-secret.record.js';

/** The only code that reads or writes the `server_secrets` table. */
@Injectable()
export class ServerSecretRepository {
  constructor(private readonly db: Database) {}

  /** The secret of that name: `value` when there is none yet (the first insert wins). */
  async findOrInsert(name: string, value: Buffer): Promise<Buffer> {
    const secrets = this.db.repository(ServerSecretRecord);
    await secrets.createQueryBuilder().insert().values({ name, value }).orIgnore().execute();
    return (await secrets.findOneByOrFail({ name })).value;
  }
}
