import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { configureScimmy, counted } from './scim-protocol.js';
import { loadScimmy, scimmy } from './scimmy.js';

/**
 * SCIM's discovery documents (RFC 7644 §4): what the service provider supports, the resource
 * types it serves (User, Group) and their schemas, as Trove keeps them. Loads and sets up SCIMMY
 * at start-up while SCIM is on (TROVE_SCIM_TOKEN set).
 */
@Injectable()
export class ScimDiscoveryService implements OnModuleInit {
  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  async onModuleInit(): Promise<void> {
    if (this.config.get('scim', { infer: true }).token !== '') {
      configureScimmy(await loadScimmy());
    }
  }

  async serviceProviderConfig(base: string): Promise<unknown> {
    scimmy().Resources.ServiceProviderConfig.basepath(base);
    return new (scimmy().Resources.ServiceProviderConfig)().read();
  }

  async resourceTypes(base: string, id?: string): Promise<unknown> {
    scimmy().Resources.ResourceType.basepath(base);
    return id === undefined
      ? counted(await new (scimmy().Resources.ResourceType)().read())
      : new (scimmy().Resources.ResourceType)(id).read();
  }

  async schemas(base: string, id?: string): Promise<unknown> {
    scimmy().Resources.Schema.basepath(base);
    return id === undefined
      ? counted(await new (scimmy().Resources.Schema)().read())
      : new (scimmy().Resources.Schema)(id).read();
  }
}
