/** An export writes a backup zip of the group; an import restores one into it. */
export const GROUP_EXPORT_KINDS = ['export', 'import'] as const;
export type GroupExportKind = (typeof GROUP_EXPORT_KINDS)[number];

export const GROUP_EXPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type GroupExportStatus = (typeof GROUP_EXPORT_STATUSES)[number];
