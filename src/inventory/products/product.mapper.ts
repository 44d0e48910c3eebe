import type { ProductHit } from './barcode-providers.js';
import type { BarcodeProductDto } from './dto/barcode-product.dto.js';

/** Limits of POST /entities, so that `item` can be sent as it is. */
export const ITEM_NAME_MAX = 255;
export const ITEM_DESCRIPTION_MAX = 1000;

/** At most `max` characters (code points, so no surrogate pair is cut in half). */
const clip = (value: string, max: number): string => Array.from(value).slice(0, max).join('');

/**
 * A hit as the API answers it. `item` is ready to create an entity: name and description from
 * the provider, quantity 1, no tags, and "" for parentId and entityTypeId (the caller chooses).
 */
export function toBarcodeProduct(hit: ProductHit, imageBase64: string): BarcodeProductDto {
  return {
    barcode: hit.barcode,
    imageBase64,
    imageURL: hit.imageUrl,
    manufacturer: hit.manufacturer,
    modelNumber: hit.modelNumber,
    notes: '',
    search_engine_name: hit.searchEngineName,
    item: {
      name: clip(hit.name, ITEM_NAME_MAX),
      description: clip(hit.description, ITEM_DESCRIPTION_MAX),
      quantity: 1,
      parentId: '',
      entityTypeId: '',
      tagIds: [],
    },
  };
}
