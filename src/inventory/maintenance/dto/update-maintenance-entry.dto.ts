import { CreateMaintenanceEntryDto } from './create-maintenance-entry.dto.js';

/**
 * The body of PUT /maintenance/{id}: a full replacement with the same rules as create (not a
 * PartialType), so omitted dates become none, an omitted description "" and an omitted cost 0.
 */
export class UpdateMaintenanceEntryDto extends CreateMaintenanceEntryDto {}
