import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServerSecretRepository } from './server-secret.repository.js';

/**
 * Secrets shared by every instance on the database: taken from configuration when set, else
 * generated once and kept in `server_secrets` (the first instance to insert wins).
 */
@Injectable()
export class ServerSecretsService {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(private readonly secrets: ServerSecretRepository) {}

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

  private loadOrCreate(name: string): Promise<Buffer> {
    return this.secrets.findOrInsert(name, randomBytes(32));
  }
}
