import { type ArgumentsHost, NotFoundException } from '@nestjs/common';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { HttpErrorFilter } from './http-error.filter.js';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';

interface Captured {
  status?: number;
  body?: unknown;
}

const run = (exception: unknown): Captured => {
  const captured: Captured = {};
  const response = {
    headersSent: false,
    status(code: number) {
      captured.status = code;
      return this;
    },
    json(body: unknown) {
      captured.body = body;
    },
  };
  const request = { id: 'req-1', method: 'GET', path: '/x' };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  const filter = new HttpErrorFilter();
  (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
  filter.catch(exception, host);
  return captured;
};

const queryFailed = (code: string, constraint?: string): QueryFailedError =>
  new QueryFailedError('INSERT', [], Object.assign(new Error('db'), { code, constraint }));

describe('HttpErrorFilter', () => {
  it('keeps an HTTP exception’s status and message', () => {
    expect(run(new NotFoundException('tag 1 not found'))).toEqual({
      status: 404,
      body: { error: 'tag 1 not found' },
    });
  });

  it('writes validation failures as 422 with fields', () => {
    expect(run(ValidationFailedException.forField('name', 'name must not be empty'))).toEqual({
      status: 422,
      body: { error: 'Validation Error', fields: { name: 'name must not be empty' } },
    });
  });

  it('maps PostgreSQL constraint errors to client errors', () => {
    expect(run(queryFailed('23505', 'users_email_key'))).toEqual({
      status: 409,
      body: { error: 'a record with the same unique values already exists (users_email_key)' },
    });
    expect(run(queryFailed('23503', 'entities_parent_id_fkey')).status).toBe(409);
    expect(run(queryFailed('23514', 'attachments_type_check')).status).toBe(422);
    expect(run(queryFailed('22P02')).status).toBe(400);
  });

  it('maps pg’s own errors (prepared statements) like TypeORM’s', () => {
    const unique = Object.assign(new pg.DatabaseError('duplicate key', 1, 'error'), {
      code: '23505',
      constraint: 'tags_group_id_name_key',
    });
    expect(run(unique)).toEqual({
      status: 409,
      body: {
        error: 'a record with the same unique values already exists (tags_group_id_name_key)',
      },
    });
    const nul = Object.assign(new pg.DatabaseError('invalid byte sequence', 1, 'error'), {
      code: '22021',
    });
    expect(run(nul)).toEqual({ status: 400, body: { error: 'a value is invalid' } });
  });

  it('answers anything else with a 500 carrying only the request id', () => {
    expect(run(new Error('secret internals'))).toEqual({
      status: 500,
      body: { error: 'internal error', requestId: 'req-1' },
    });
    expect(run(queryFailed('42P01')).status).toBe(500);
  });
});
