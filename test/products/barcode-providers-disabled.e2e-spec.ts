import { BadGatewayException, Logger } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/identity/auth/auth-user.js';
import type { TroveConfig } from '../../src/platform/config/configuration.js';
import { OutboundHttpService } from '../../src/platform/outbound/outbound-http.service.js';
import { ProductsService } from '../../src/inventory/products/products.service.js';
import { recordClientRequests } from '../outbound/local-servers.js';
import { answerError, freshEan13, offProduct, StandIns } from './barcode-stand-ins.js';

/*
 * An empty provider URL disables the provider. The environment cannot express that yet (an
 * empty variable takes its default, a public URL), so the service is built here directly, with
 * the guard and the stand-ins, and no request can leave the machine.
 */
describe('ProductsService with disabled providers', () => {
  let standIns: StandIns;
  const caller = { id: 'user', groupId: 'group', role: 'viewer' } as unknown as AuthUser;

  const service = (barcode: Partial<TroveConfig['barcode']>): ProductsService => {
    const settings: Pick<TroveConfig, 'barcode' | 'build'> = {
      barcode: {
        upcitemdbUrl: '',
        upcitemdbKey: '',
        openFoodFactsUrl: '',
        timeoutMs: 1000,
        cacheTtlMs: 0,
        ...barcode,
      },
      build: { version: '9.9.9', commit: '', buildTime: '' },
    };
    const config = {
      get: (key: keyof typeof settings) => settings[key],
    } as unknown as ConfigService<TroveConfig, true>;
    const outbound = new OutboundHttpService({
      allowNets: ['127.0.0.1/32'],
      userAgent: 'Trove/9.9.9',
    });
    return new ProductsService(config, outbound);
  };

  beforeAll(async () => {
    // Outside an app, Nest's logger would print the expected provider failure.
    Logger.overrideLogger(false);
    standIns = await StandIns.start();
  });
  afterAll(() => standIns.close());

  it('asks only the enabled provider', async () => {
    const code = freshEan13();
    standIns.off.set(code, offProduct(code, { product_name: 'Tea', brands: 'Leaf' }));
    const recorder = recordClientRequests();
    try {
      const products = await service({ openFoodFactsUrl: standIns.offServer.url }).searchByBarcode(
        caller,
        { data: code },
      );
      expect(products).toEqual([
        {
          barcode: code,
          imageBase64: '',
          imageURL: '',
          manufacturer: 'Leaf',
          modelNumber: '',
          notes: '',
          search_engine_name: 'openfoodfacts.org',
          item: {
            name: 'Tea',
            description: '',
            quantity: 1,
            parentId: '',
            entityTypeId: '',
            tagIds: [],
          },
        },
      ]);
      expect(recorder.hosts).toEqual(['127.0.0.1']);
      expect(standIns.offRequests(code)[0].headers['user-agent']).toBe('Trove/9.9.9');
    } finally {
      recorder.stop();
    }
  });

  it('fails with 502 when its only enabled provider fails', async () => {
    const code = freshEan13();
    standIns.upc.set(code, answerError);
    const search = service({ upcitemdbUrl: standIns.upcServer.url }).searchByBarcode(caller, {
      data: code,
    });
    await expect(search).rejects.toBeInstanceOf(BadGatewayException);
    await expect(search).rejects.toThrow('no barcode provider could be reached');
    expect(standIns.offRequests(code)).toHaveLength(0);
  });

  it('answers [] without any request when no provider is enabled', async () => {
    const recorder = recordClientRequests();
    try {
      await expect(
        service({}).searchByBarcode(caller, { productEAN: '4006381333931' }),
      ).resolves.toEqual([]);
      expect(recorder.hosts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });
});
