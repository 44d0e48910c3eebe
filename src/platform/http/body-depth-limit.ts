import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { nestsDeeperThan } from './validation/json-depth.js';

/**
 * The deepest nesting of objects and arrays a request body may have. Every body Trove accepts
 * nests a few levels at most; validating or copying a deeply nested one would recurse once per
 * level and could exhaust the stack.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses, right after the body parsers, a parsed body that nests deeper than `maxDepth`
 * levels: 400 `request body nests deeper than <maxDepth> levels`. No handler, pipe or
 * validator sees such a body.
 */
export function bodyDepthLimit(maxDepth = MAX_BODY_DEPTH) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const body: unknown = request.body;
    if (nestsDeeperThan(body, maxDepth)) {
      next(new BadRequestException(`request body nests deeper than ${maxDepth} levels`));
      return;
    }
    next();
  };
}
