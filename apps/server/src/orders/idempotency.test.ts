import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/envelope.ts';
import { canonicalJson, isUniqueViolation, replay, requestHash } from './idempotency.ts';
import { orderNumber, orderPrefix } from './number.ts';

const row = (o: Record<string, unknown> = {}) => ({
  id: 1,
  scope: 'order.save',
  key: 'k',
  store_id: 1,
  request_hash: 'h',
  status: 'completed' as const,
  http_status: 200,
  response: '{"code":200,"result":{"increment_id":"DO-100001"}}',
  created_at: '',
  updated_at: '',
  ...o,
});

describe('idempotency', () => {
  it('hashes a payload the same whatever its key order, and per store', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }], c: undefined })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(requestHash(1, { a: 1, b: 2 })).toBe(requestHash(1, { b: 2, a: 1 }));
    expect(requestHash(1, { a: 1 })).not.toBe(requestHash(2, { a: 1 }));
  });

  it('replays the first answer, and refuses another payload or store with 422', () => {
    expect(replay(row(), 1, 'h')).toEqual({ status: 200, body: { code: 200, result: { increment_id: 'DO-100001' } } });
    for (const [storeId, hash] of [[1, 'other'], [2, 'h']] as const) {
      try {
        replay(row(), storeId, hash);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).statusCode).toBe(422);
      }
    }
  });

  it('recognises unique violations of both dialects', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_CHECK', message: 'CHECK constraint failed' })).toBe(false);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
  });
});

describe('order numbers', () => {
  it('are the store prefix and 100000 + the order id', () => {
    expect(orderPrefix('downtown')).toBe('DO');
    expect(orderPrefix('x-1')).toBe('XX');
    expect(orderNumber({ storeCode: 'harbor' }, 42)).toBe('HA-100042');
  });
});
