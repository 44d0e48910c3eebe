import type { MigrationInterface } from 'typeorm';
import { CreateSchema1795219200000 } from './1795219200000-CreateSchema.js';
import { AddEntitySearch1795219260000 } from './1795219260000-AddEntitySearch.js';
import { AddEntityCountIndex1795219320000 } from './1795219320000-AddEntityCountIndex.js';
import { AddAttachmentPathIndex1795219380000 } from './1795219380000-AddAttachmentPathIndex.js';
import { AddNextAssetIdFunction1795219440000 } from './1795219440000-AddNextAssetIdFunction.js';
import { AddGroupOidcSharedKey1795219500000 } from './1795219500000-AddGroupOidcSharedKey.js';
import { CoverEntityParentIndex1795219560000 } from './1795219560000-CoverEntityParentIndex.js';
import { WidenFieldNumbersAddFieldPositions1795219620000 } from './1795219620000-WidenFieldNumbersAddFieldPositions.js';
import { CreateIdempotencyKeys1795219680000 } from './1795219680000-CreateIdempotencyKeys.js';
import { IndexEntityNameOrder1795219740000 } from './1795219740000-IndexEntityNameOrder.js';
import { EncryptNotifierUrls1795219800000 } from './1795219800000-EncryptNotifierUrls.js';
import { CreatePasswordResets1795219860000 } from './1795219860000-CreatePasswordResets.js';
import { CreateReminderRuns1795219920000 } from './1795219920000-CreateReminderRuns.js';
import { CreateGroupExports1795220100000 } from './1795220100000-CreateGroupExports.js';
import { NotifyCredentialChanges1795220280000 } from './1795220280000-NotifyCredentialChanges.js';
import { MaintainEntityCounts1795220340000 } from './1795220340000-MaintainEntityCounts.js';
import { MaintainGroupStatistics1795220400000 } from './1795220400000-MaintainGroupStatistics.js';
import { RecordEntityHistory1795220460000 } from './1795220460000-RecordEntityHistory.js';
import { CreateEntityStock1795220520000 } from './1795220520000-CreateEntityStock.js';
import { CreateCheckouts1795220580000 } from './1795220580000-CreateCheckouts.js';
import { RecordStockAndCheckoutHistory1795220640000 } from './1795220640000-RecordStockAndCheckoutHistory.js';
import { MaintainTagMatches1795220700000 } from './1795220700000-MaintainTagMatches.js';
import { MaintainLocationVersions1795220760000 } from './1795220760000-MaintainLocationVersions.js';
import { MaintainChildItemCounts1795220820000 } from './1795220820000-MaintainChildItemCounts.js';
import { AddAccountDeprovisioning1795221300000 } from './1795221300000-AddAccountDeprovisioning.js';
import { StoreIdempotentAnswersWithChanges1795221390000 } from './1795221390000-StoreIdempotentAnswersWithChanges.js';
import { PairAttachmentTokensWithSessions1795221540000 } from './1795221540000-PairAttachmentTokensWithSessions.js';
import { RefuseAssetIdsPastTheLargest1795221600000 } from './1795221600000-RefuseAssetIdsPastTheLargest.js';
import { KeepTagValuesByTheirOwnTrigger1795221660000 } from './1795221660000-KeepTagValuesByTheirOwnTrigger.js';
import { CreateStockAdjustments1795221720000 } from './1795221720000-CreateStockAdjustments.js';
import { KeepScimNameParts1795221780000 } from './1795221780000-KeepScimNameParts.js';
import { CreateInstanceBackups1795221900000 } from './1795221900000-CreateInstanceBackups.js';
import { CreateScimGroups1795221840000 } from './1795221840000-CreateScimGroups.js';

/** Every migration, oldest first. A merged migration is never edited; fix forward. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateSchema1795219200000,
  AddEntitySearch1795219260000,
  AddEntityCountIndex1795219320000,
  AddAttachmentPathIndex1795219380000,
  AddNextAssetIdFunction1795219440000,
  AddGroupOidcSharedKey1795219500000,
  CoverEntityParentIndex1795219560000,
  WidenFieldNumbersAddFieldPositions1795219620000,
  CreateIdempotencyKeys1795219680000,
  IndexEntityNameOrder1795219740000,
  EncryptNotifierUrls1795219800000,
  CreatePasswordResets1795219860000,
  CreateReminderRuns1795219920000,
  CreateGroupExports1795220100000,
  NotifyCredentialChanges1795220280000,
  MaintainEntityCounts1795220340000,
  MaintainGroupStatistics1795220400000,
  RecordEntityHistory1795220460000,
  CreateEntityStock1795220520000,
  CreateCheckouts1795220580000,
  RecordStockAndCheckoutHistory1795220640000,
  MaintainTagMatches1795220700000,
  MaintainLocationVersions1795220760000,
  MaintainChildItemCounts1795220820000,
  AddAccountDeprovisioning1795221300000,
  StoreIdempotentAnswersWithChanges1795221390000,
  PairAttachmentTokensWithSessions1795221540000,
  RefuseAssetIdsPastTheLargest1795221600000,
  KeepTagValuesByTheirOwnTrigger1795221660000,
  CreateStockAdjustments1795221720000,
  KeepScimNameParts1795221780000,
  CreateScimGroups1795221840000,
  CreateInstanceBackups1795221900000,
];
