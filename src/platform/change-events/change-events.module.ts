import { Global, Module } from '@nestjs/common';
import { ChangeEvents } from './change-events.service.js';

/**
 * Change notices: `ChangeEvents`, global so that every module's write methods announce their
 * changes without importing this module. The change feed (`web/change-feed/`) passes them on to
 * the sockets of the changed group.
 */
@Global()
@Module({
  providers: [ChangeEvents],
  exports: [ChangeEvents],
})
export class ChangeEventsModule {}
