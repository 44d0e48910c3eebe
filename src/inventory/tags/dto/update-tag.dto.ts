import { CreateTagDto } from './create-tag.dto.js';

/**
 * The body of PUT /tags/{id}: a full replacement with the same rules as create (not a
 * PartialType), so an omitted parentId makes the tag a root and omitted texts become "".
 */
export class UpdateTagDto extends CreateTagDto {}
