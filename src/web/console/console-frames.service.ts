import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { UsersService } from '../../identity/users/users.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { ConsoleFrame } from './console-layout.js';

/** What every console page's frame shows of its caller: their name, group, role and rights. */
@Injectable()
export class ConsoleFrames {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  async of(user: AuthUser): Promise<ConsoleFrame> {
    const [self, group] = await Promise.all([
      this.users.getSelf(user),
      this.groups.getById(user.groupId),
    ]);
    return {
      userName: self.name,
      groupName: group.name,
      role: user.role,
      instanceAdmin: this.users.isInstanceAdmin(self),
      webUi: this.config.get('web', { infer: true }).uiDir !== '',
    };
  }
}
