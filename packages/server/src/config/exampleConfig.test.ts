import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './loadConfig';

describe('config/lantern.example.yml', () => {
  it('is valid and equal to the built-in defaults', () => {
    const file = fileURLToPath(new URL('../../../../config/lantern.example.yml', import.meta.url));
    expect(loadConfig({ file, env: {} })).toEqual(loadConfig({ env: {} }));
  });
});
