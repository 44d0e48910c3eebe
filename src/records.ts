import { ApiKeyRecord } from './auth/api-key.record.js';
import { AttachmentRecord } from './attachments/attachment.record.js';
import { AuthRoleRecord } from './auth/auth-role.record.js';
import { AuthTokenRecord } from './auth/auth-token.record.js';
import { LoginAttemptRecord } from './auth/login-attempt.record.js';
import { ServerSecretRecord } from './auth/server-secret.record.js';
import { CheckoutRecord } from './checkouts/checkout.record.js';
import { GroupExportRecord } from './collection-backups/group-export.record.js';
import { IdempotencyKeyRecord } from './common/idempotency/idempotency-key.record.js';
import { EntityFieldRecord } from './entities/entity-field.record.js';
import { EntityRecord } from './entities/entity.record.js';
import { EntityHistoryRecord } from './history/entity-history.record.js';
import { EntityTypeRecord } from './entity-types/entity-type.record.js';
import { GroupInvitationRecord } from './groups/group-invitation.record.js';
import { GroupMembershipRecord } from './groups/group-membership.record.js';
import { GroupRecord } from './groups/group.record.js';
import { MaintenanceEntryRecord } from './maintenance/maintenance-entry.record.js';
import { NotifierRecord } from './notifiers/notifier.record.js';
import { OidcLogoutTokenRecord } from './oidc/oidc-logout-token.record.js';
import { PasswordResetRecord } from './password-resets/password-reset.record.js';
import { ReminderRunRecord } from './reminders/reminder-run.record.js';
import { ScimIdentityRecord } from './scim/scim-identity.record.js';
import { WarrantyAnnouncementRecord } from './reminders/warranty-announcement.record.js';
import { EntityStockRecord } from './stock/entity-stock.record.js';
import { TagRecord } from './tags/tag.record.js';
import { TemplateFieldRecord } from './templates/template-field.record.js';
import { TemplateRecord } from './templates/template.record.js';
import { UserRecord } from './users/user.record.js';

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
  ReminderRunRecord,
  WarrantyAnnouncementRecord,
  GroupExportRecord,
  EntityHistoryRecord,
  CheckoutRecord,
  EntityStockRecord,
  OidcLogoutTokenRecord,
  ScimIdentityRecord,
];
