import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { applyDecorators, type Logger } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { onFirstUse } from '../runtime/on-first-use.js';

/** The CSV writer, imported with the first download. */
const csvStringify = onFirstUse(async () => (await import('csv-stringify')).stringify);

/** A CSV file to send: its header row, its records as an object stream of cells, its name. */
export interface CsvDownload {
  /** The whole `Content-Disposition` value. */
  disposition: string;
  header: string[];
  /** One array of cells per record, read only as fast as the client takes the file. */
  rows: Readable;
}

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Documents a route that answers a CSV download. */
export const ApiCsv = (description: string): MethodDecorator =>
  applyDecorators(
    ApiProduces('text/csv'),
    ApiOkResponse({ description, content: { 'text/csv': { schema: { type: 'string' } } } }),
  );

/**
 * Streams a CSV file to the client with backpressure: comma-separated, `\n` after each record,
 * cells quoted when they hold a comma, a quote or a line break. Once it has started, a failure
 * can only cut the response short; a client that goes away stops the reading.
 */
export async function sendCsv(
  response: Response,
  download: CsvDownload,
  logger: Logger,
): Promise<void> {
  const stringify = await csvStringify();
  response.status(200);
  response.setHeader('Content-Type', CSV_CONTENT_TYPE);
  response.setHeader('Content-Disposition', download.disposition);
  const csv = stringify();
  csv.write(download.header);
  try {
    await pipeline(download.rows, csv, response);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      logger.warn(
        `CSV download cut short: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
