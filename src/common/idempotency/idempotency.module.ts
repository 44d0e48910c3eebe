import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyService } from './idempotency.service.js';

/** `Idempotency-Key` on creating routes: one global interceptor, keys kept in PostgreSQL. */
@Module({
  providers: [
    IdempotencyService,
    IdempotencyKeyRepository,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
