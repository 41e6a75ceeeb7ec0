import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { route, routePath, type RouteBody, type RouteParams, type RouteQuery, type RouteResponse } from './contract';

const example = route({
  id: 'example',
  method: 'POST',
  path: '/api/v1/things/:projectId/items/:itemId',
  query: z.object({ limit: z.coerce.number().optional() }),
  body: z.object({ name: z.string() }),
  response: z.object({ ok: z.boolean() }),
  summary: 'Example',
  tags: ['test'],
});

describe('route contracts', () => {
  it('derive string params from the path and type input and answer', () => {
    expectTypeOf<RouteParams<typeof example>>().toEqualTypeOf<{ projectId: string; itemId: string }>();
    expectTypeOf<RouteQuery<typeof example>>().toEqualTypeOf<{ limit?: unknown }>();
    expectTypeOf<RouteBody<typeof example>>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<RouteResponse<typeof example>>().toEqualTypeOf<{ ok: boolean }>();
    expect(example.params.parse({ projectId: '1', itemId: 'a', other: 'x' })).toEqual({ projectId: '1', itemId: 'a' });
    expect(example.status).toBe(200);
    expect(example.auth).toBe('session');
  });

  it('fill a path with encoded params and refuse a missing one', () => {
    expect(routePath(example, { projectId: '1', itemId: 'a/b' })).toBe('/api/v1/things/1/items/a%2Fb');
    expect(() => routePath(example, { projectId: '1' } as never)).toThrow(/itemId/);
  });

  it('type a route without query or body as taking none', () => {
    const bare = route({
      id: 'bare',
      method: 'GET',
      path: '/api/v1/x',
      response: z.object({}),
      summary: 's',
      tags: [],
    });
    expect(bare.path).toBe('/api/v1/x');
    expectTypeOf<RouteQuery<typeof bare>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteBody<typeof bare>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteParams<typeof bare>>().toEqualTypeOf<Record<string, never>>();
  });
});
