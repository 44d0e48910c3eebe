import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { presentedUpgradeToken, subprotocolToken } from './token-extraction.js';

const upgrade = (
  headers: Record<string, string>,
  query: Record<string, string> = {},
  cookies: Record<string, string> = {},
): Request => ({ headers, query, cookies }) as unknown as Request;

describe('the token of a WebSocket upgrade', () => {
  it('takes the protocol after hb-auth in Sec-WebSocket-Protocol', () => {
    expect(subprotocolToken(upgrade({ 'sec-websocket-protocol': 'hb-auth, abc.def.ghi' }))).toBe(
      'abc.def.ghi',
    );
    expect(subprotocolToken(upgrade({ 'sec-websocket-protocol': 'x,hb-auth,tok' }))).toBe('tok');
    expect(subprotocolToken(upgrade({ 'sec-websocket-protocol': 'hb-auth' }))).toBeUndefined();
    expect(subprotocolToken(upgrade({ 'sec-websocket-protocol': 'tok, hb-auth' }))).toBeUndefined();
    expect(subprotocolToken(upgrade({}))).toBeUndefined();
  });

  it('prefers the Authorization header, then the subprotocol, then the cookie, then the query', () => {
    const cookies = { 'hb.auth.token': 'from-cookie', 'hb.auth.remember': 'true' };
    const all = upgrade(
      { authorization: 'Bearer from-header', 'sec-websocket-protocol': 'hb-auth, from-protocol' },
      { access_token: 'from-query' },
      cookies,
    );
    expect(presentedUpgradeToken(all)).toEqual({ token: 'from-header', source: 'header' });
    const noHeader = upgrade(
      { 'sec-websocket-protocol': 'hb-auth, from-protocol' },
      { access_token: 'from-query' },
      cookies,
    );
    expect(presentedUpgradeToken(noHeader)).toEqual({
      token: 'from-protocol',
      source: 'subprotocol',
    });
    expect(presentedUpgradeToken(upgrade({}, { access_token: 'from-query' }, cookies))).toEqual({
      token: 'from-cookie',
      source: 'cookie',
    });
    expect(presentedUpgradeToken(upgrade({}, { access_token: 'from-query' }))).toEqual({
      token: 'from-query',
      source: 'query',
    });
    expect(presentedUpgradeToken(upgrade({}))).toBeUndefined();
  });
});
