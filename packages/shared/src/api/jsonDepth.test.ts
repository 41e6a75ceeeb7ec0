import { describe, expect, it } from 'vitest';
import { SavedViewInput } from './tracingQuery';
import { WebhookChannelInput } from './alerting';
import { jsonDepthOver, MAX_JSON_DEPTH } from './jsonDepth';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('jsonDepthOver', () => {
  it('counts nesting without recursion, so a value 500k deep is measured, not a stack overflow', () => {
    expect(jsonDepthOver('x', 0)).toBe(false);
    expect(jsonDepthOver({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(jsonDepthOver({ a: [1, { b: {} }] }, 3)).toBe(true);
    expect(jsonDepthOver(nested(500_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('bounds the free-form JSON of saved views and webhook payloads', () => {
    const view = (params: unknown) => SavedViewInput.safeParse({ name: 'v', route: 'r', params: { a: params } });
    expect(view(nested(MAX_JSON_DEPTH - 1)).success).toBe(true);
    expect(view(nested(MAX_JSON_DEPTH)).error?.issues[0].message).toBe('is nested too deeply (at most 32 levels)');
    const hook = (payload: string) =>
      WebhookChannelInput.safeParse({ name: 'w', params: { url: 'http://example.com', payload } });
    expect(hook('{"text": [1, 2]}').success).toBe(true);
    expect(hook('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)).error?.issues[0].message).toBe(
      'the payload is nested too deeply (at most 32 levels)',
    );
    // Deeper still, the text is first too long to be read at all.
    expect(hook('['.repeat(200_000) + ']'.repeat(200_000)).error?.issues[0].message).toBe(
      'the payload is longer than 10000 characters',
    );
  });
});
