import { ApiKeyRecord } from './identity/auth/api-key.record.js';
import { AttachmentRecord } from './inventory/attachments/attachment.record.js';
import { AuthRoleRecord } from './identity/auth/auth-role.record.js';
import { AuthTokenRecord } from './identity/auth/auth-token.record.js';
import { LoginAttemptRecord } from './identity/auth/login-attempt.record.js';
import { ServerSecretRecord } from './identity/auth/server-secret.record.js';
import { CheckoutRecord } from './inventory/checkouts/checkout.record.js';
import { GroupExportRecord } from './operations/collection-backups/group-export.record.js';
import { IdempotencyKeyRecord } from './platform/idempotency/idempotency-key.record.js';
import { EntityFieldRecord } from './inventory/entities/core/entity-field.record.js';
import { EntityRecord } from './inventory/entities/core/entity.record.js';
import { EntityHistoryRecord } from './inventory/history/entity-history.record.js';
import { EntityTypeRecord } from './inventory/entity-types/entity-type.record.js';
import { GroupInvitationRecord } from './identity/groups/group-invitation.record.js';
import { GroupMembershipRecord } from './identity/groups/group-membership.record.js';
import { GroupRecord } from './identity/groups/group.record.js';
import { MaintenanceEntryRecord } from './inventory/maintenance/maintenance-entry.record.js';
import { NotifierRecord } from './operations/notifiers/notifier.record.js';
import { OidcLogoutTokenRecord } from './identity/oidc/oidc-logout-token.record.js';
import { PasswordResetRecord } from './identity/password-resets/password-reset.record.js';
import { InstanceBackupRecord } from './operations/instance-backups/instance-backup.record.js';
import { ReminderRunRecord } from './operations/reminders/reminder-run.record.js';
import { ScimGroupMemberRecord, ScimGroupRecord } from './identity/scim/scim-group.record.js';
import { ScimIdentityRecord } from './identity/scim/scim-identity.record.js';
import { WarrantyAnnouncementRecord } from './operations/reminders/warranty-announcement.record.js';
import { EntityStockRecord } from './inventory/stock/entity-stock.record.js';
import { StockAdjustmentRecord } from './inventory/stock/stock-adjustment.record.js';
import { TagRecord } from './inventory/tags/tag.record.js';
import { TemplateFieldRecord } from './inventory/templates/template-field.record.js';
import { TemplateRecord } from './inventory/templates/template.record.js';
import { UserRecord } from './identity/users/user.record.js';

/** Every persistence class; the data source is built from this list, never from a glob. */
export const RECORDS = [
  GroupRecord,
  GroupMembershipRecord,
  GroupInvitationRecord,
  UserRecord,
  AuthTokenRecord,
  AuthRoleRecord,
  ApiKeyRecord,
  LoginAttemptRecord,
  ServerSecretRecord,
  NotifierRecord,
  EntityTypeRecord,
  TemplateRecord,
  TemplateFieldRecord,
  EntityRecord,
  EntityFieldRecord,
  TagRecord,
  AttachmentRecord,
  MaintenanceEntryRecord,
  IdempotencyKeyRecord,
  PasswordResetRecord,
  InstanceBackupRecord,
  ReminderRunRecord,
  WarrantyAnnouncementRecord,
  GroupExportRecord,
  EntityHistoryRecord,
  CheckoutRecord,
  EntityStockRecord,
  StockAdjustmentRecord,
  OidcLogoutTokenRecord,
  ScimGroupRecord,
  ScimGroupMemberRecord,
  ScimIdentityRecord,
];
