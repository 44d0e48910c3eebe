import type SCIMMY from 'scimmy';
import { onFirstUse } from '../../platform/runtime/on-first-use.js';

let loaded: typeof SCIMMY | undefined;

/**
 * Imports SCIMMY, the SCIM protocol library: at start-up, and only while SCIM is on
 * (TROVE_SCIM_TOKEN set; `ScimUsersService.onModuleInit`), so an instance without SCIM does
 * not hold it.
 */
export const loadScimmy = onFirstUse(async () => (loaded = (await import('scimmy')).default));

/** SCIMMY, loaded: SCIM's routes reach it only while SCIM is on, when it was loaded at start-up. */
export function scimmy(): typeof SCIMMY {
  if (loaded === undefined) throw new Error('SCIMMY is used before it was loaded');
  return loaded;
}

/** SCIMMY if it was loaded, else undefined (and then no error can be one of SCIMMY's). */
export const scimmyIfLoaded = (): typeof SCIMMY | undefined => loaded;
