import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ServerSecretRecord } from './server-secret.record.js';

/**
 * Secrets shared by every instance on the database: taken from configuration when set, else
 * generated once and kept in `server_secrets` (the first instance to insert wins).
 */
@Injectable()
export class ServerSecretsService {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(
    @InjectRepository(ServerSecretRecord) private readonly secrets: Repository<ServerSecretRecord>,
  ) {}

  get(name: string, configured: string): Promise<Buffer> {
    if (configured !== '') return Promise.resolve(Buffer.from(configured, 'utf8'));
    let secret = this.cache.get(name);
    if (!secret) {
      secret = this.loadOrCreate(name);
      secret.catch(() => this.cache.delete(name));
      this.cache.set(name, secret);
    }
    return secret;
  }

  private async loadOrCreate(name: string): Promise<Buffer> {
    await this.secrets
      .createQueryBuilder()
      .insert()
      .values({ name, value: randomBytes(32) })
      .orIgnore()
      .execute();
    const { value } = await this.secrets.findOneByOrFail({ name });
    return value;
  }
}
