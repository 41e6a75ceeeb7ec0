import { describe, expect, it } from 'vitest';
import { loginReturningTo } from './loginRedirect';

describe('loginReturningTo', () => {
  it('keeps the page and its query as next', () => {
    expect(loginReturningTo({ pathname: '/traces/2/abc', search: '?span=7' })).toBe(
      '/login?next=%2Ftraces%2F2%2Fabc%3Fspan%3D7',
    );
  });

  it('leaves next out for Home and for Login itself', () => {
    expect(loginReturningTo({ pathname: '/', search: '' })).toBe('/login');
    expect(loginReturningTo({ pathname: '/login', search: '?next=%2Fx' })).toBe('/login');
  });
});
