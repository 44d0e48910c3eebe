import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { JsonText, sendJsonText } from './json-text.js';

/**
 * Nest's Express adapter, which also sends the responses route handlers return already written
 * as JSON (`JsonText`) as they are, instead of serialising them again.
 */
export class TroveExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof JsonText) {
      sendJsonText(response as Response, body, statusCode);
      return undefined;
    }
    return super.reply(response, body, statusCode);
  }
}
