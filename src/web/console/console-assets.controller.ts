import { Get, Header } from '@nestjs/common';
import { Public } from '../../identity/auth/decorators/public.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { CONSOLE_SCRIPT } from './console-script.js';

/** The console's script, from Trove's own origin (the pages' policy runs no other). */
@Page('console/assets')
export class ConsoleAssetsController {
  @Get('console.js')
  @Public()
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  script(): string {
    return CONSOLE_SCRIPT;
  }
}
