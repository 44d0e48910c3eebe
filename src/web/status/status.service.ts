import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { DatabaseHealthService } from '../health/database-health.service.js';
import type { StatusDto } from './dto/status.dto.js';

export const API_VERSIONS = ['v1'];

@Injectable()
export class StatusService {
  constructor(
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly databaseHealth: DatabaseHealthService,
  ) {}

  async getStatus(): Promise<StatusDto> {
    const build = this.config.get('build', { infer: true });
    const options = this.config.get('options', { infer: true });
    const oidc = this.config.get('oidc', { infer: true });
    return {
      allowRegistration: options.allowRegistration,
      build: { buildTime: build.buildTime, commit: build.commit, version: build.version },
      demo: options.demo,
      health: await this.databaseHealth.isHealthy(),
      labelPrinting: this.config.get('labelMaker', { infer: true }).printCommand !== '',
      // Trove makes no outbound release checks: the newest version it knows is its own.
      latest: { date: build.buildTime, version: build.version },
      message: 'Track, organise and find everything your organisation owns',
      oidc: {
        allowLocal: options.allowLocalLogin,
        autoRedirect: oidc.autoRedirect,
        buttonText: oidc.buttonText,
        enabled: oidc.enabled,
      },
      telemetry: { enabled: false },
      title: 'Trove',
      versions: [...API_VERSIONS],
    };
  }
}
