import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module, Param, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import pg from 'pg';
import { limitHeapGrowth } from '../src/platform/runtime/heap-growth.js';
import { connectionPool } from './database.js';
import { rawGet } from './raw.js';

/**
 * The framework alone under Trove's get: the raw prepared get (raw.ts) behind one NestJS route
 * on platform-express, and nothing else of Trove's (no middleware, guard, interceptor, pipe or
 * filter). A child process of the benchmark (framework-floor.ts) with Trove's heap setting and
 * pool size, so that its rate and resident set compare with Trove's. It gets its settings in the
 * environment and sends the port it listens on as its one IPC message.
 */

interface FloorSettings {
  databaseUrl: string;
  groupId: string;
  poolSize: number;
  heapGrowthPercent: number;
}

function readSettings(): FloorSettings {
  const { DATABASE_URL, FLOOR_GROUP_ID, FLOOR_POOL_SIZE, FLOOR_HEAP_GROWTH_PERCENT } = process.env;
  if (!DATABASE_URL || !FLOOR_GROUP_ID) {
    throw new Error('DATABASE_URL and FLOOR_GROUP_ID are required');
  }
  return {
    databaseUrl: DATABASE_URL,
    groupId: FLOOR_GROUP_ID,
    poolSize: Number(FLOOR_POOL_SIZE) || 10,
    heapGrowthPercent: Number(FLOOR_HEAP_GROWTH_PERCENT) || 0,
  };
}

async function start(settings: FloorSettings): Promise<INestApplication> {
  limitHeapGrowth(settings.heapGrowthPercent);
  const pool = connectionPool(settings.databaseUrl, settings.poolSize);

  @Controller('api/v1/entities')
  class FloorController {
    @Get(':id')
    async get(@Param('id') id: string): Promise<Record<string, unknown>[]> {
      const result = (await rawGet(pool, settings.groupId, id)) as pg.QueryResult<
        Record<string, unknown>
      >;
      return result.rows;
    }
  }

  @Module({ controllers: [FloorController] })
  class FloorModule {}

  const app = await NestFactory.create(FloorModule, new ExpressAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  // Stopped by the benchmark (SIGTERM), or gone with it: its IPC channel closes when it exits.
  const stop = (): void => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  return app;
}

const app = await start(readSettings());
const address = (app.getHttpServer() as Server).address() as AddressInfo;
process.send!({ port: address.port });
