/** A product as one provider describes it, before its image is fetched. */
export interface ProductHit {
  searchEngineName: string;
  barcode: string;
  manufacturer: string;
  modelNumber: string;
  name: string;
  description: string;
  /** An http(s) URL of a picture, or "". */
  imageUrl: string;
}

export const UPCITEMDB_NAME = 'upcitemdb.com';
export const OPEN_FOOD_FACTS_NAME = 'openfoodfacts.org';

/** A provider answered, but not with something we can read: treated like an unreachable provider. */
export class ProviderResponseError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON string or number as trimmed text; anything else as "". */
function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** The value when it is an absolute http or https URL, else "". */
function httpUrl(value: unknown): string {
  const candidate = text(value);
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : '';
  } catch {
    return '';
  }
}

function parseJson(body: Buffer): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ProviderResponseError('answered with a body that is not JSON');
  }
  if (!isObject(parsed))
    throw new ProviderResponseError('answered with JSON that is not an object');
  return parsed;
}

/**
 * Reads a UPCitemdb-style answer to `GET <url>/lookup?upc=<code>`:
 * `{items: [{ean, title, description, brand, model, images: [...]}]}`. 404 means nothing found;
 * items without a title, brand or model are skipped.
 */
export function parseUpcitemdbResponse(status: number, body: Buffer, code: string): ProductHit[] {
  if (status === 404) return [];
  if (status !== 200) throw new ProviderResponseError(`answered HTTP ${status}`);
  const json = parseJson(body);
  if (!Array.isArray(json.items))
    throw new ProviderResponseError('answered without an items array');
  return json.items.filter(isObject).flatMap((item): ProductHit[] => {
    const manufacturer = text(item.brand);
    const modelNumber = text(item.model);
    const name = text(item.title) || [manufacturer, modelNumber].filter(Boolean).join(' ');
    if (name === '') return [];
    const images = Array.isArray(item.images) ? item.images : [];
    return [
      {
        searchEngineName: UPCITEMDB_NAME,
        barcode: text(item.ean) || text(item.upc) || code,
        manufacturer,
        modelNumber,
        name,
        description: text(item.description),
        imageUrl: images.map(httpUrl).find((url) => url !== '') ?? '',
      },
    ];
  });
}

/**
 * Reads an Open Food Facts-style answer to `GET <url>/api/v2/product/<code>.json`:
 * `{status: 1, product: {product_name, generic_name, brands, categories, quantity, image_url}}`;
 * `status: 0` (Open Food Facts answers it with HTTP 404) means nothing found. The name is the
 * product name, else the generic name, else the brands; the description joins the generic
 * name, categories and quantity with " | ".
 */
export function parseOpenFoodFactsResponse(
  status: number,
  body: Buffer,
  code: string,
): ProductHit[] {
  if (status !== 200 && status !== 404) throw new ProviderResponseError(`answered HTTP ${status}`);
  const json = parseJson(body);
  if (json.status === 0 || json.status === '0') return [];
  if ((json.status !== 1 && json.status !== '1') || !isObject(json.product)) {
    throw new ProviderResponseError('answered neither status 0 nor status 1 with a product');
  }
  const product = json.product;
  const genericName = text(product.generic_name);
  const brands = text(product.brands);
  const name = text(product.product_name) || genericName || brands;
  if (name === '') return [];
  return [
    {
      searchEngineName: OPEN_FOOD_FACTS_NAME,
      barcode: text(json.code) || code,
      manufacturer: brands,
      modelNumber: '',
      name,
      description: [genericName, text(product.categories), text(product.quantity)]
        .filter(Boolean)
        .join(' | '),
      imageUrl: httpUrl(product.image_url),
    },
  ];
}
