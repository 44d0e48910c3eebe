import { BadGatewayException, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { fileTypeModule } from '../../platform/runtime/on-first-use.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { OutboundError } from '../../platform/outbound/outbound-errors.js';
import { OutboundHttpService } from '../../platform/outbound/outbound-http.service.js';
import {
  OPEN_FOOD_FACTS_NAME,
  parseOpenFoodFactsResponse,
  parseUpcitemdbResponse,
  UPCITEMDB_NAME,
  type ProductHit,
} from './barcode-providers.js';
import type { BarcodeProductDto } from './dto/barcode-product.dto.js';
import type { SearchProductsQueryDto } from './dto/search-products.query.dto.js';
import { gtinProblem } from './gtin.js';
import { toBarcodeProduct } from './product.mapper.js';

const MEBIBYTE = 1024 * 1024;
/** Largest provider answer read. */
export const PROVIDER_MAX_BYTES = 4 * MEBIBYTE;
/** Largest product image embedded. */
export const IMAGE_MAX_BYTES = 8 * MEBIBYTE;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
/** Codes kept in the cache at most; the oldest goes first. */
const CACHE_CAPACITY = 5000;
/** The Open Food Facts fields read, so that the provider sends little else. */
const OPEN_FOOD_FACTS_FIELDS =
  'code,product_name,generic_name,brands,categories,quantity,image_url';

export const NO_PROVIDER_MESSAGE = 'no barcode provider could be reached';

interface Provider {
  name: string;
  lookup(code: string): Promise<ProductHit[]>;
}

interface CachedSearch {
  expiresAt: number;
  products: BarcodeProductDto[];
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Looks products up by barcode at the configured providers (in parallel, each through the
 * outbound guard), embeds their images, and keeps complete answers for the cache time.
 */
@Injectable()
export class ProductsService {
  private readonly logger = new Logger('ProductSearch');
  private readonly settings: TroveConfig['barcode'];
  private readonly version: string;
  private readonly cache = new Map<string, CachedSearch>();
  /** Searches under way, so that concurrent requests for one code ask the providers once. */
  private readonly pending = new Map<string, Promise<BarcodeProductDto[]>>();

  constructor(
    config: ConfigService<TroveConfig, true>,
    private readonly outbound: OutboundHttpService,
  ) {
    this.settings = config.get('barcode', { infer: true });
    this.version = config.get('build', { infer: true }).version;
  }

  /**
   * The products known under a barcode; [] when no provider knows it. Product data is public,
   * so the cache is shared by every group; the caller only has to be a member of one.
   */
  searchByBarcode(_user: AuthUser, query: SearchProductsQueryDto): Promise<BarcodeProductDto[]> {
    const code = barcodeOf(query);
    const cached = this.fromCache(code);
    if (cached) return Promise.resolve(cached);
    let search = this.pending.get(code);
    if (!search) {
      search = this.search(code).finally(() => this.pending.delete(code));
      this.pending.set(code, search);
    }
    return search;
  }

  private async search(code: string): Promise<BarcodeProductDto[]> {
    const providers = this.providers();
    if (providers.length === 0) return [];
    const outcomes = await Promise.allSettled(
      providers.map(async (provider) => this.withImages(code, await provider.lookup(code))),
    );
    const products: BarcodeProductDto[] = [];
    let failures = 0;
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') {
        products.push(...outcome.value);
      } else {
        failures++;
        this.logger.warn(
          `barcode provider ${providers[index].name} failed for ${code}: ${messageOf(outcome.reason)}`,
        );
      }
    });
    if (failures === providers.length) throw new BadGatewayException(NO_PROVIDER_MESSAGE);
    // A partial answer is not kept: the next search asks the failed provider again.
    if (failures === 0) this.remember(code, products);
    return products;
  }

  /** The enabled providers, in the order their hits are listed. */
  private providers(): Provider[] {
    const { upcitemdbUrl, upcitemdbKey, openFoodFactsUrl, timeoutMs } = this.settings;
    const providers: Provider[] = [];
    if (upcitemdbUrl !== '') {
      providers.push({
        name: UPCITEMDB_NAME,
        lookup: async (code) => {
          const response = await this.outbound.fetch(
            `${upcitemdbUrl}/lookup?upc=${encodeURIComponent(code)}`,
            {
              accept: 'application/json',
              headers: upcitemdbKey === '' ? {} : { user_key: upcitemdbKey },
              timeoutMs,
              maxBytes: PROVIDER_MAX_BYTES,
            },
          );
          return parseUpcitemdbResponse(response.status, response.body, code);
        },
      });
    }
    if (openFoodFactsUrl !== '') {
      providers.push({
        name: OPEN_FOOD_FACTS_NAME,
        lookup: async (code) => {
          const response = await this.outbound.fetch(
            `${openFoodFactsUrl}/api/v2/product/${encodeURIComponent(code)}.json?fields=${OPEN_FOOD_FACTS_FIELDS}`,
            {
              accept: 'application/json',
              headers: { 'User-Agent': `Trove/${this.version}` },
              timeoutMs,
              maxBytes: PROVIDER_MAX_BYTES,
            },
          );
          return parseOpenFoodFactsResponse(response.status, response.body, code);
        },
      });
    }
    return providers;
  }

  private withImages(code: string, hits: ProductHit[]): Promise<BarcodeProductDto[]> {
    return Promise.all(
      hits.map(async (hit) => toBarcodeProduct(hit, await this.imageDataUri(code, hit.imageUrl))),
    );
  }

  /** The image as a data URI when it is a JPEG or PNG (by its bytes) within the limit; else "". */
  private async imageDataUri(code: string, url: string): Promise<string> {
    if (url === '') return '';
    try {
      const response = await this.outbound.fetch(url, {
        accept: 'image/jpeg, image/png',
        timeoutMs: this.settings.timeoutMs,
        maxBytes: IMAGE_MAX_BYTES,
      });
      if (response.status !== 200) {
        this.logger.debug(`image for ${code} not embedded: HTTP ${response.status}`);
        return '';
      }
      const { fileTypeFromBuffer } = await fileTypeModule();
      const type = await fileTypeFromBuffer(response.body);
      if (!type || !IMAGE_TYPES.has(type.mime)) {
        this.logger.debug(`image for ${code} not embedded: not a JPEG or PNG`);
        return '';
      }
      return `data:${type.mime};base64,${response.body.toString('base64')}`;
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      this.logger.warn(`image for ${code} not embedded: ${error.message}`);
      return '';
    }
  }

  private fromCache(code: string): BarcodeProductDto[] | undefined {
    const entry = this.cache.get(code);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.products;
    this.cache.delete(code);
    return undefined;
  }

  private remember(code: string, products: BarcodeProductDto[]): void {
    const ttl = this.settings.cacheTtlMs;
    if (ttl <= 0) return;
    this.cache.delete(code);
    if (this.cache.size >= CACHE_CAPACITY) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(code, { expiresAt: Date.now() + ttl, products });
  }
}

/** The barcode of the query (`data`, else `productEAN`), checked; 422 on `data` otherwise. */
export function barcodeOf(query: SearchProductsQueryDto): string {
  const code = query.data?.trim() || query.productEAN?.trim() || '';
  if (code === '') {
    throw ValidationFailedException.forField(
      'data',
      'a barcode is required (query parameter data, or productEAN)',
    );
  }
  const problem = gtinProblem(code);
  if (problem) throw ValidationFailedException.forField('data', `the barcode ${problem}`);
  return code;
}
