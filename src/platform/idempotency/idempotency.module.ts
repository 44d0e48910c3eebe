import { Global, Module } from '@nestjs/common';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * `Idempotency-Key` on creating routes: the interceptor that @Idempotent() puts on each of them
 * (so no other route runs it), with the keys kept in PostgreSQL; global, so that the module of
 * every such route can make the interceptor.
 */
@Global()
@Module({
  providers: [IdempotencyService, IdempotencyKeyRepository],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
