import {
  applyDecorators,
  Controller,
  UseFilters,
  UseGuards,
  VERSION_NEUTRAL,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PageErrorFilter } from './page-error.filter.js';
import { SameOriginPostGuard } from './same-origin.guard.js';

/**
 * A controller of Trove's own pages at `path` (outside `/api`, unversioned, not in the OpenAPI
 * document): its errors are answered as HTML pages (`PageErrorFilter`, which sends a signed-out
 * browser to the sign-in page), and its form posts are taken only from Trove's own origin
 * (`SameOriginPostGuard`). The global guards apply as to any route: pages are public only where
 * they say so, and a viewer reaches no write.
 */
export const Page = (path: string): ClassDecorator =>
  applyDecorators(
    Controller({ path, version: VERSION_NEUTRAL }),
    ApiExcludeController(),
    UseFilters(PageErrorFilter),
    UseGuards(SameOriginPostGuard),
  );
