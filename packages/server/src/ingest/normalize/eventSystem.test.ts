import { describe, it, expect } from 'vitest';
import type { AttrMap } from '../spanRow';
import { canonicalEventName, classifyEvent, type HostSpan } from './eventSystem';

const host: HostSpan = { name: 'grpc.Cart/Add', kind: 'client' };

function classify(eventName: string, attrs: AttrMap, h: HostSpan = host) {
  const merged = { ...attrs };
  const got = classifyEvent(eventName, merged, attrs, h);
  return {
    type: got.type,
    system: got.system,
    displayName: got.displayName,
    groupName: got.groupName,
    suffix: got.hashSuffix,
    attrs: merged,
  };
}

describe('classifyEvent (reference ingest §2.8)', () => {
  it.each<[string, string, AttrMap, string, string, string]>([
    ['log without severity → INFO', 'log', { 'log.message': 'started' }, 'log', 'log:info', 'INFO started'],
    [
      'log severity normalised',
      'log',
      { 'log.severity': 'warning', 'log.message': 'slow' },
      'log',
      'log:warn',
      'WARN slow',
    ],
    [
      'log with an unknown severity → INFO',
      'log',
      { 'log.severity': 'loud' },
      'log',
      'log:info',
      '{"log.severity":"loud"}',
    ],
    [
      'QUIRK fixed: other event with raw severity',
      'custom',
      { 'log.severity': 'warning', 'log.message': 'x' },
      'log',
      'log:warn',
      'WARN x',
    ],
    [
      'exception',
      'exception',
      { 'exception.type': 'TypeError', 'exception.message': 'x is undefined' },
      'log',
      'log:error',
      'TypeError: x is undefined',
    ],
    ['exception with only a type', 'exception', { 'exception.type': 'Timeout' }, 'log', 'log:error', 'Timeout'],
    ['other event with exception.message', 'oops', { 'exception.message': 'bad' }, 'log', 'log:error', 'bad'],
    [
      'message with rpc.system',
      'message',
      { 'rpc.system': 'grpc', 'message.type': 'SENT' },
      'message',
      'message:grpc',
      'grpc.Cart/Add SENT',
    ],
    [
      'message with messaging op',
      'message',
      { 'messaging.system': 'kafka', 'messaging.operation': 'publish' },
      'message',
      'message:kafka',
      'grpc.Cart/Add publish',
    ],
    ['message falls back to kind', 'message', {}, 'message', 'message:unknown', 'grpc.Cart/Add client'],
    ['anything else', 'cache.miss', { key: 'k' }, 'other-events', 'other-events', ''],
  ])('%s', (_name, eventName, attrs, type, system, displayName) => {
    const got = classify(eventName, attrs);
    expect([got.type, got.system, got.displayName]).toEqual([type, system, displayName]);
  });

  it('message on an internal span without details is just "message"', () => {
    expect(classify('message', {}, { name: 'n', kind: 'internal' }).displayName).toBe('message');
  });

  it('stores the normalised severity on log rows', () => {
    expect(classify('log', { 'log.severity': 'err' }).attrs['log.severity']).toBe('ERROR');
    expect(classify('log', {}).attrs['log.severity']).toBe('INFO');
  });

  it('hashes only the words of log and exception messages', () => {
    expect(classify('log', { 'log.message': 'user 42 not found' }).suffix).toBe('user not found');
    expect(classify('exception', { 'exception.message': 'id 7 missing' }).suffix).toBe('id missing');
  });

  it('names log and exception groups by the message template; the row keeps the message', () => {
    const log = classify('log', { 'log.severity': 'error', 'log.message': 'payment 4407 declined after 101ms' });
    expect([log.displayName, log.groupName]).toEqual([
      'ERROR payment 4407 declined after 101ms',
      'ERROR payment <num> declined after <duration>',
    ]);
    const exc = classify('exception', {
      'exception.type': 'CardError',
      'exception.message': "card 'visa-4242' declined",
    });
    expect([exc.displayName, exc.groupName]).toEqual([
      "CardError: card 'visa-4242' declined",
      'CardError: card <str> declined',
    ]);
    expect(classify('cache.miss', { key: 'k' }).groupName).toBe('');
  });

  it('renames error events to exception', () => {
    expect(canonicalEventName('error')).toBe('exception');
    expect(canonicalEventName('log')).toBe('log');
  });
});
