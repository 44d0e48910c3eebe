import { Module } from '@nestjs/common';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { ChangeFeedGateway } from './change-feed.gateway.js';

/**
 * The change feed, `GET /api/v1/ws/events`: the WebSocket gateway that passes the change notices
 * of every instance (`ChangeEvents`) to the sockets of the changed group.
 */
@Module({
  imports: [AuthModule],
  providers: [ChangeFeedGateway],
})
export class ChangeFeedModule {}
