import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { securityHeaders } from '../../platform/http/security-headers.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { inlineScriptHashes, singlePageAppHeaders } from '../pages/content-security.js';
import { consoleLinkEdit } from './console-link.js';
import { FileCopies } from './file-copies.js';
import { ENTRY_PAGES, isWebUiRequest, serveWebUiFiles } from './web-ui-files.js';

type Middleware = (request: Request, response: Response, next: NextFunction) => void;

/**
 * The single-page app of TROVE_WEB_UI_DIR (Homebox's web UI), served outside `/api`, `/swagger`
 * and the pages that stay Trove's (`/sign-in`, `/sign-out`, the console), with its own security
 * headers. Without a directory it answers nothing, and Trove's own pages (`web/pages/`) take `/`.
 */
@Injectable()
export class WebUi implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('WebUi');
  private handle: Middleware | undefined;
  private copies: FileCopies | undefined;

  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  /** One middleware, mounted before the API's routes; it answers once the module is ready. */
  middleware(): Middleware {
    return (request, response, next) => {
      if (this.handle) this.handle(request, response, next);
      else next();
    };
  }

  onModuleInit(): void {
    const { uiDir, consoleLink } = this.config.get('web', { infer: true });
    if (uiDir !== '') this.handle = this.directory(uiDir, consoleLink);
  }

  onModuleDestroy(): void {
    this.copies?.close();
  }

  private directory(directory: string, consoleLink: boolean): Middleware {
    const hashes = ENTRY_PAGES.flatMap((name) => {
      try {
        return inlineScriptHashes(readFileSync(path.join(directory, name), 'utf8'));
      } catch {
        return [];
      }
    });
    const headers = securityHeaders(singlePageAppHeaders([...new Set(hashes)]));
    this.copies = new FileCopies();
    const files = serveWebUiFiles(
      directory,
      this.copies,
      consoleLink ? consoleLinkEdit : undefined,
    );
    this.logger.log(
      `serving the web UI in ${directory}${consoleLink ? ', with a link to the console' : ''}`,
    );
    return (request, response, next) => {
      if (!isWebUiRequest(request)) return next();
      headers(request, response, () => files(request, response, next));
    };
  }
}
