import { route } from '@lantern/shared';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp } from './app';
import { registerRawRoute, registerRoute } from './routes';

const thing = route({
  id: 'testThing',
  method: 'POST',
  path: '/api/v1/things/:thingId',
  query: z.object({ tag: z.array(z.string()).optional(), n: z.coerce.number().int().optional() }),
  body: z.object({ name: z.string().min(1, 'name is required') }),
  response: z.object({ id: z.string(), name: z.string(), tags: z.array(z.string()) }),
  summary: 'A thing',
  tags: ['test'],
});

async function appWith(checkAnswers: boolean, answer?: unknown) {
  const app = await createHttpApp(pino({ level: 'silent' }), { checkAnswers });
  registerRoute(app, thing, async ({ params, query, body }) =>
    answer !== undefined
      ? (answer as never)
      : { id: params.thingId, name: body.name, tags: [...(query.tag ?? []), String(query.n ?? 0)] },
  );
  return app;
}

describe('routes registered from contracts', () => {
  it('parse params, the folded query string and the body by the contract', async () => {
    const app = await appWith(true);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/things/a1?tag[]=x&tag=y&n=3',
      payload: { name: 'lamp' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a1', name: 'lamp', tags: ['x', 'y', '3'] });
    expect(app.registeredRoutes).toContainEqual({
      method: 'POST',
      url: '/api/v1/things/:thingId',
      contractId: 'testThing',
    });
    await app.close();
  });

  it('answer bad input with 400 {code, message} naming the field', async () => {
    const app = await appWith(true);
    const bad = await app.inject({ method: 'POST', url: '/api/v1/things/a1?n=x', payload: { name: 'lamp' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'invalid_input', message: expect.stringMatching(/^n: /) });
    const noName = await app.inject({ method: 'POST', url: '/api/v1/things/a1', payload: { name: '' } });
    expect(noName.json()).toEqual({ code: 'invalid_input', message: 'name: name is required' });
    await app.close();
  });

  it('refuse an answer that breaks its contract when checking answers, and send it as is otherwise', async () => {
    const broken = { id: 'a1', name: 5, tags: [] };
    const checking = await appWith(true, broken);
    const res = await checking.inject({ method: 'POST', url: '/api/v1/things/a1', payload: { name: 'lamp' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'answer_breaks_contract',
      message: expect.stringContaining('testThing answered outside its contract: name:'),
    });
    await checking.close();
    const production = await appWith(false, broken);
    const sent = await production.inject({ method: 'POST', url: '/api/v1/things/a1', payload: { name: 'lamp' } });
    expect(sent.json()).toEqual(broken);
    await production.close();
  });

  it('serialize by the response schema when asked (unknown properties dropped)', async () => {
    const app = await createHttpApp(pino({ level: 'silent' }));
    registerRoute(app, thing, async () => ({ id: '1', name: 'n', tags: [], secret: 'not in the contract' }) as never, {
      serialize: true,
    });
    const res = await app.inject({ method: 'POST', url: '/api/v1/things/1', payload: { name: 'n' } });
    expect(res.json()).toEqual({ id: '1', name: 'n', tags: [] });
    await app.close();
  });

  it('keep JSON routes and raw routes apart', async () => {
    const app = await createHttpApp(pino({ level: 'silent' }));
    expect(() => registerRawRoute(app, thing, async () => ({ id: '', name: '', tags: [] }))).toThrow(/registerRoute/);
    await app.close();
  });

  it('type a handler by its contract: an answer outside the response schema does not compile', () => {
    // Compile-time only (tsc -p packages/server checks it): each line below must be a type error.
    const typeOnly = (app: Parameters<typeof registerRoute>[0]) => {
      // @ts-expect-error `name` must be a string
      registerRoute(app, thing, async () => ({ id: '1', name: 2, tags: [] }));
      // @ts-expect-error `tags` is missing
      registerRoute(app, thing, async () => ({ id: '1', name: 'n' }));
      // @ts-expect-error the body has no `title`
      registerRoute(app, thing, async ({ body }) => ({ id: '1', name: body.title, tags: [] }));
    };
    expect(typeof typeOnly).toBe('function');
  });
});
