import { describe, expect, it } from 'vitest';
import { classifyAddress, createAddressGuard, RefusedAddressError } from './ssrf';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd00::1', 'private'],
    ['100.64.0.1', 'private'],
    ['172.32.0.1', null],
    ['8.8.8.8', null],
    ['2606:4700::1111', null],
    ['not-an-ip', null],
  ])('%s -> %s', (addr, cls) => {
    expect(classifyAddress(addr)).toBe(cls);
  });
});

describe('address guard', () => {
  it('refuses private classes unless allowed', async () => {
    const strict = createAddressGuard([]);
    expect(() => strict.check('x', '127.0.0.1')).toThrow(RefusedAddressError);
    expect(() => strict.check('x', '169.254.169.254')).toThrow(/link-local/);
    await expect(strict.checkHost('localhost')).rejects.toThrow(RefusedAddressError);
    await expect(strict.checkHost('[::1]')).rejects.toThrow(RefusedAddressError);
    const loopback = createAddressGuard(['loopback']);
    expect(() => loopback.check('x', '127.0.0.1')).not.toThrow();
    expect(() => loopback.check('x', '10.0.0.1')).toThrow(/private/);
    await expect(loopback.checkHost('127.0.0.1')).resolves.toBeUndefined();
  });
});
