import { describe, expect, it } from 'vitest';
import { pageTitle } from './pageTitle';

describe('pageTitle', () => {
  it('names the page, then the project, then Lantern', () => {
    expect(pageTitle('Monitors', 'My project')).toBe('Monitors · My project · Lantern');
  });

  it('leaves out what the screen does not have', () => {
    expect(pageTitle('Log in', undefined)).toBe('Log in · Lantern');
    expect(pageTitle(undefined, 'Shop')).toBe('Shop · Lantern');
    expect(pageTitle('  ', undefined)).toBe('Lantern');
  });
});
