import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ChangeFeedGateway } from './change-feed.gateway.js';
import { ChangeEvents } from './change-events.service.js';

/**
 * The change feed: `ChangeEvents` (global, so every module's write methods announce their
 * changes) and the WebSocket gateway that passes them to the sockets of the changed group.
 */
@Global()
@Module({
  imports: [AuthModule],
  providers: [ChangeEvents, ChangeFeedGateway],
  exports: [ChangeEvents],
})
export class EventsModule {}
