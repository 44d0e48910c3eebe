import { ConflictException, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { ClsService } from 'nestjs-cls';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { PasswordsService } from '../../identity/auth/passwords.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { postgresErrorOf } from '../../platform/database/database-errors.js';
import { EntitiesService } from '../../inventory/entities/core/entities.service.js';
import { EntityTypesService } from '../../inventory/entity-types/entity-types.service.js';
import { TagsService } from '../../inventory/tags/tags.service.js';
import { homeGroupName, RegistrationService } from '../../identity/users/registration.service.js';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_NAME = 'Demo';

/** The demo's sample inventory: locations, tags and the items kept in them. */
const SAMPLE_TAGS = ['Power tools', 'Kitchen gear', 'Camping', 'Warranty'] as const;
type SampleTag = (typeof SAMPLE_TAGS)[number];
const SAMPLE_LOCATIONS: {
  name: string;
  items: { name: string; tags: SampleTag[]; quantity?: number; description?: string }[];
}[] = [
  {
    name: 'Workbench',
    items: [
      {
        name: 'Cordless drill',
        tags: ['Power tools', 'Warranty'],
        description: '18 V, two batteries',
      },
      { name: 'Orbital sander', tags: ['Power tools'] },
      { name: 'Box of wood screws', tags: [], quantity: 4 },
    ],
  },
  {
    name: 'Pantry shelf',
    items: [
      { name: 'Espresso machine', tags: ['Kitchen gear', 'Warranty'] },
      { name: 'Cast iron skillet', tags: ['Kitchen gear'] },
    ],
  },
  {
    name: 'Attic',
    items: [
      { name: 'Two-person tent', tags: ['Camping'] },
      { name: 'Sleeping bag', tags: ['Camping'], quantity: 2 },
      { name: 'Head torch', tags: ['Camping'], quantity: 3 },
    ],
  },
];

/**
 * Demo mode's account: at start-up, when `demo@example.com` does not exist yet, registers it
 * (named "Demo", with the demo password, in a group of its own) and fills its group with sample
 * locations, tags and items, all in one unit of work. Instances starting together may race: the
 * one that loses finds the account taken and leaves it as seeded.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    private readonly registration: RegistrationService,
    private readonly passwords: PasswordsService,
    private readonly entityTypes: EntityTypesService,
    private readonly entities: EntitiesService,
    private readonly tags: TagsService,
    private readonly cls: ClsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const options = this.config.get('options', { infer: true });
    if (!options.demo) return;
    try {
      await this.cls.run(() => this.seed(options.demoPassword));
      this.logger.log(`demo account ${DEMO_EMAIL} seeded with sample items`);
    } catch (error) {
      if (error instanceof ConflictException || postgresErrorOf(error)?.code === '23505') return;
      throw error;
    }
  }

  @Transactional()
  private async seed(password: string): Promise<void> {
    const passwordHash = await this.passwords.hash(password);
    const user = await this.registration.createWithOwnGroup(
      { name: DEMO_NAME, email: DEMO_EMAIL, passwordHash },
      homeGroupName(DEMO_NAME),
    );
    const groupId = user.defaultGroupId!;
    const owner: AuthUser = {
      id: user.id,
      credential: { kind: 'session', tokenId: '' },
      tokenRoles: ['user'],
      tenant: { groupId, role: 'owner' },
      groupId,
      role: 'owner',
    };
    const tagIds = new Map<SampleTag, string>();
    for (const name of SAMPLE_TAGS) tagIds.set(name, (await this.tags.create(owner, { name })).id);
    const locationType = await this.entityTypes.defaultType(groupId, true);
    for (const location of SAMPLE_LOCATIONS) {
      const place = await this.entities.insert(groupId, {
        name: location.name,
        entityTypeId: locationType.id,
      });
      for (const item of location.items) {
        await this.entities.insert(
          groupId,
          {
            name: item.name,
            description: item.description,
            quantity: item.quantity,
            entityTypeId: null,
            parentId: place.id,
          },
          item.tags.map((tag) => tagIds.get(tag)!),
        );
      }
    }
  }
}
