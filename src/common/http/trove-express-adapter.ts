import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { JsonAnswer, sendJsonAnswer } from './json-answer.js';

/**
 * Nest's Express adapter, which also sends the answers route handlers return already written
 * as JSON (`JsonAnswer`) as they are, instead of serialising them again.
 */
export class TroveExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof JsonAnswer) {
      sendJsonAnswer(response as Response, body, statusCode);
      return undefined;
    }
    return super.reply(response, body, statusCode);
  }
}
