import { describe, expect, it } from 'vitest';
import { decodeChangeNotice, encodeChangeNotice } from './change-events.service.js';

describe('change notices on the PostgreSQL channel', () => {
  const groupId = '5f0c6b7e-9d7a-4c1e-8f7e-0b6c2d9a1e33';

  it('round-trip a group and an event', () => {
    const payload = encodeChangeNotice({ groupId, event: 'tag.mutation' });
    expect(JSON.parse(payload)).toEqual({ groupId, event: 'tag.mutation' });
    expect(decodeChangeNotice(payload)).toEqual({ groupId, event: 'tag.mutation' });
  });

  it('ignore members they do not know', () => {
    expect(decodeChangeNotice(JSON.stringify({ groupId, event: 'user.mutation', n: 7 }))).toEqual({
      groupId,
      event: 'user.mutation',
    });
  });

  it('refuse anything else on the channel', () => {
    for (const payload of [
      'not json',
      'null',
      '[]',
      JSON.stringify({ groupId }),
      JSON.stringify({ groupId, event: 'ping' }),
      JSON.stringify({ groupId: 7, event: 'tag.mutation' }),
      JSON.stringify({ event: 'entity.mutation' }),
    ]) {
      expect(decodeChangeNotice(payload), payload).toBeUndefined();
    }
  });
});
