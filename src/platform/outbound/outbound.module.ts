import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../config/configuration.js';
import { OutboundHttpService } from './outbound-http.service.js';

/** The guarded HTTP client for every request Trove makes to other servers. */
@Module({
  providers: [
    {
      provide: OutboundHttpService,
      inject: [ConfigService],
      useFactory: (config: ConfigService<TroveConfig, true>) =>
        new OutboundHttpService({
          allowNets: config.get('outboundAllowNets', { infer: true }),
          userAgent: `Trove/${config.get('build', { infer: true }).version}`,
        }),
    },
  ],
  exports: [OutboundHttpService],
})
export class OutboundModule {}
