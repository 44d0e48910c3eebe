import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import {
  sendJson,
  startLocalServer,
  type LocalServer,
  type ReceivedRequest,
} from '../outbound/local-servers.js';

export const NO_TOKEN = { error: 'authorization header or query is required' };
export const BAD_TOKEN = { error: 'valid authorization token is required' };
export const FORGED_TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl';
export const NO_PROVIDER = { error: 'no barcode provider could be reached' };
export const SEARCH = '/api/v1/products/search-from-barcode';

export const PRODUCT_KEYS = [
  'barcode',
  'imageBase64',
  'imageURL',
  'item',
  'manufacturer',
  'modelNumber',
  'notes',
  'search_engine_name',
];
export const ITEM_KEYS = ['description', 'entityTypeId', 'name', 'parentId', 'quantity', 'tagIds'];

/** A GTIN with its GS1 check digit appended (weights 3, 1, … from the right of the payload). */
export function withCheckDigit(payload: string): string {
  const digits = [...payload].reverse().map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return `${payload}${(10 - (sum % 10)) % 10}`;
}

let serial = 100_000;
/** A fresh valid EAN-13, so that no test meets another's cached answer. */
export const freshEan13 = (): string => withCheckDigit(`400000${serial++}`);

/** How a stand-in answers one code. */
export type Behaviour = (request: ReceivedRequest, response: ServerResponse) => void;

export const answerJson =
  (status: number, body: unknown): Behaviour =>
  (_request, response) =>
    sendJson(response, status, body);
export const answerGarbage: Behaviour = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('<html>this is not JSON');
};
export const answerError: Behaviour = (_request, response) => {
  response.writeHead(500, { 'content-type': 'text/plain' });
  response.end('internal error');
};
/** Answers like `behaviour`, `ms` later. */
export const delayed =
  (ms: number, behaviour: Behaviour): Behaviour =>
  (request, response) => {
    setTimeout(() => behaviour(request, response), ms);
  };

/** Never answers (the guard's time limit ends it). */
export const hang: Behaviour = () => undefined;

export const upcNothing = answerJson(200, { code: 'OK', total: 0, offset: 0, items: [] });
export const offNothing = answerJson(404, { status: 0, status_verbose: 'product not found' });

/** UPCitemdb-style and Open Food Facts-style stand-ins, answering per code, and an image server. */
export class StandIns {
  readonly upc = new Map<string, Behaviour>();
  readonly off = new Map<string, Behaviour>();
  upcServer: LocalServer;
  offServer: LocalServer;
  imageServer: LocalServer;
  jpeg: Buffer;
  png: Buffer;

  static async start(): Promise<StandIns> {
    const standIns = new StandIns();
    standIns.jpeg = await sharp({
      create: { width: 4, height: 3, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .jpeg()
      .toBuffer();
    standIns.png = await sharp({
      create: { width: 2, height: 2, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } },
    })
      .png()
      .toBuffer();
    standIns.upcServer = await startLocalServer((request, response) => {
      const url = new URL(request.url, 'http://stand-in');
      const code = url.searchParams.get('upc') ?? '';
      if (url.pathname !== '/lookup') return sendJson(response, 404, { code: 'NOT_FOUND' });
      (standIns.upc.get(code) ?? upcNothing)(request, response);
    });
    standIns.offServer = await startLocalServer((request, response) => {
      const match = /^\/api\/v2\/product\/(\d+)\.json$/.exec(
        new URL(request.url, 'http://stand-in').pathname,
      );
      if (!match) return sendJson(response, 404, { status: 0 });
      (standIns.off.get(match[1]) ?? offNothing)(request, response);
    });
    standIns.imageServer = await startLocalServer((request, response) => {
      const send = (type: string, body: Buffer): void => {
        response.writeHead(200, { 'content-type': type });
        response.end(body);
      };
      switch (request.url) {
        case '/photo.jpg':
          return send('image/jpeg', standIns.jpeg);
        case '/photo.png':
          return send('image/png', standIns.png);
        case '/page.jpg':
          return send('image/jpeg', Buffer.from('<!doctype html><title>not an image</title>'));
        case '/anim.gif':
          return send('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
        case '/huge.jpg':
          return send(
            'image/jpeg',
            Buffer.concat([
              standIns.jpeg,
              Buffer.alloc(8 * 1024 * 1024 + 1 - standIns.jpeg.length),
            ]),
          );
        default:
          response.writeHead(404);
          response.end();
      }
    });
    return standIns;
  }

  /** The Trove settings that point both providers at the stand-ins. */
  env(): Record<string, string> {
    return {
      TROVE_BARCODE_UPCITEMDB_URL: this.upcServer.url,
      TROVE_BARCODE_OPENFOODFACTS_URL: this.offServer.url,
      TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
      TROVE_BARCODE_TIMEOUT: '1',
    };
  }

  image(name: string): string {
    return `${this.imageServer.url}/${name}`;
  }

  /** Requests a stand-in received for one code. */
  upcRequests(code: string): ReceivedRequest[] {
    return this.upcServer.requests.filter((request) => request.url === `/lookup?upc=${code}`);
  }
  offRequests(code: string): ReceivedRequest[] {
    return this.offServer.requests.filter((request) =>
      request.url.startsWith(`/api/v2/product/${code}.json`),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.upcServer.close(), this.offServer.close(), this.imageServer.close()]);
  }
}

/** A UPCitemdb answer with one item. */
export const upcItem = (item: Record<string, unknown>): Behaviour =>
  answerJson(200, { code: 'OK', total: 1, offset: 0, items: [item] });

/** An Open Food Facts answer with a product. */
export const offProduct = (code: string, product: Record<string, unknown>): Behaviour =>
  answerJson(200, { code, status: 1, status_verbose: 'product found', product });

export function search(trove: TestApp, session: Session, query: Record<string, string>) {
  return trove.http.get(SEARCH).set('Authorization', session.authorization).query(query);
}

/** Every hit has exactly the keys of the barcode search result (spec 2.9). */
export function expectExactKeys(products: Array<Record<string, unknown>>): void {
  for (const product of products) {
    expect(Object.keys(product).sort()).toEqual(PRODUCT_KEYS);
    expect(Object.keys(product.item as object).sort()).toEqual(ITEM_KEYS);
  }
}
