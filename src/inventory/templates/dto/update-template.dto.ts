import { CreateTemplateDto } from './create-template.dto.js';

/**
 * Homebox's EntityTemplateUpdate: the members of a create, read as a replacement. The nullable
 * defaults (`defaultQuantity`, `defaultName`, `defaultDescription`, `defaultManufacturer`,
 * `defaultModelNumber`, `defaultWarrantyDetails`) are kept when omitted or null; everything else
 * is replaced (omitted texts "", flags false, no location, no tags). `fields`: with an id updates
 * that field, without one adds a field, and the template's fields not listed are deleted.
 */
export class UpdateTemplateDto extends CreateTemplateDto {}
