import { describe, it, expect } from 'vitest';
import { groupTemplate, templateMessage } from './messageTemplate';
import { messageWords } from './messageWords';

/** Real-looking messages → their template (issue 20): variables become placeholders, words stay. */
const CASES: [string, string][] = [
  // ids
  [
    'payment 4407 for order 9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d declined after 101ms',
    'payment <num> for order <uuid> declined after <duration>',
  ],
  ['user 42 not found', 'user <num> not found'],
  ['order_1234 shipped; 3 items', 'order_<num> shipped; <num> items'],
  ['token ch3MqLk2eZvKYlo2C1a2b3c4 expired', 'token <id> expired'],
  ['job user12345678 queued', 'job <id> queued'],
  ['order #1042 (attempt 2/5) failed', 'order #<num> (attempt <num>/<num>) failed'],
  // hex
  ['trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7 dropped', 'trace <hex> span <hex> dropped'],
  ['segfault at 0x7ffd5e8a1b2c in worker', 'segfault at <hex> in worker'],
  ['commit 3f2e9a1 deployed', 'commit <hex> deployed'],
  ['deadbeef cafe added', 'deadbeef cafe added'],
  // UUIDs in keys and URLs
  ['cache miss for cart:9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d:items', 'cache miss for cart:<uuid>:items'],
  // IPs
  ['connection from 10.0.0.12:54321 refused', 'connection from <ip>:<num> refused'],
  ['listening on [::1]:8080 and fe80::1ff:fe23:4567:890a', 'listening on [<ip>]:<num> and <ip>'],
  ['std::vector resized', 'std::vector resized'],
  ['device 00:1a:2b:3c:4d:5e and 0A-1B-2C-3D-4E-5F joined', 'device <mac> and <mac> joined'],
  // paths and URLs
  ['GET /api/users/1003/orders took 12.5ms', 'GET /api/users/<num>/orders took <duration>'],
  ['file /var/log/app-2024-01-05.log rotated', 'file /var/log/app-<date>.log rotated'],
  [
    'fetch https://cdn.example.com/img/42.png?w=300 failed',
    'fetch https://cdn.example.com/img/<num>.png?w=<num> failed',
  ],
  // e-mails
  ['sent mail to alice.smith+test@example.co.uk', 'sent mail to <email>'],
  ['invite for bob@corp.io expired', 'invite for <email> expired'],
  // quoted values
  ["can't find user 'bob' in group \"admins\"", "can't find user <str> in group <str>"],
  ['key="quoted value with 3 spaces" done', 'key=<str> done'],
  ['template `{{name}}` missing', 'template <str> missing'],
  ["the users' list is empty", "the users' list is empty"],
  // durations, sizes, numbers
  ['uploaded 1.5GB in 2m30s', 'uploaded <size> in <duration>'],
  ['gc pause 350µs, heap 512MiB', 'gc pause <duration>, heap <size>'],
  ['retry in 10min', 'retry in <duration>'],
  ['cpu at 97.5% on 8 cores', 'cpu at <num>% on <num> cores'],
  ['version v1.2.3 on k8s with utf8 and http2', 'version v1.2.3 on k8s with utf8 and http2'],
  ['released 2.14.0 to prod', 'released <num> to prod'],
  // times
  ['started at 2024-01-05T10:11:12.123Z, retry at 10:11:15', 'started at <time>, retry at <time>'],
  ['window 2024-01-05 10:00:00+02:00 closed', 'window <time> closed'],
  // JSON bodies: keys stay, values go
  [
    'request body {"user": 42, "name": "bob", "tags": ["a", 1], "ok": true}',
    'request body {"user": <num>, "name": <str>, "tags": [<str>, <num>], "ok": true}',
  ],
  ['{"event":"login","user":{"id":7,"ip":"10.1.1.1"}}', '{"event":<str>,"user":{"id":<num>,"ip":<str>}}'],
  ['bad body {user: 42}', 'bad body {user: <num>}'],
  // logfmt
  [
    'request done method=GET status=200 duration=12ms path=/users/9',
    'request done method=GET status=<num> duration=<duration> path=/users/<num>',
  ],
  // nothing variable
  ['server started', 'server started'],
  ['', ''],
];

describe('templateMessage', () => {
  it.each(CASES)('%j → %j', (message, want) => {
    expect(templateMessage(message)).toBe(want);
  });

  it('keeps the words of every message: the group id hashes them, so the template and the group agree', () => {
    for (const [message] of CASES)
      expect([message, messageWords(templateMessage(message))]).toEqual([message, messageWords(message)]);
  });

  it('gives messages that differ only in variables one template', () => {
    const a = templateMessage('payment 4407 for order 9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d declined after 101ms');
    const b = templateMessage('payment 12 for order 0c1d2e3f-0000-4aaa-8bbb-111122223333 declined after 2.5s');
    expect(a).toBe(b);
  });

  it('stays linear on long odd input (unclosed quotes and braces)', () => {
    const odd = '{"a\\"'.repeat(13_000) + "'x ".repeat(5000);
    const start = performance.now();
    templateMessage(odd);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe('groupTemplate', () => {
  const name = (message: string) => groupTemplate(templateMessage(message)).name;

  it.each([
    // Tokens the group id skips become placeholders: the name shows no member's own text there.
    ['slow request to /api/checkout took 8s', 'slow request to <path> took <duration>'],
    ['GET /api/users/1003/orders took 12.5ms', 'GET <path> took <duration>'],
    ['fetch https://cdn.example.com/img/42.png?w=300 failed', 'fetch <url> failed'],
    ['file (/var/log/app.log) rotated', 'file (<path>) rotated'],
    [
      'request done method=GET status=200 duration=12ms path=/users/9',
      'request done method=<*> status=<num> duration=<duration> path=<path>',
    ],
    ['order_1234 shipped; 3 items', '<*> shipped; <num> items'],
    ['version v1.2.3 on k8s', 'version <*> on <*>'],
    // Kept: placeholders with punctuation, words with punctuation, JSON keys, plain words.
    ['order #1042 (attempt 2/5) failed', 'order #<num> (attempt <num>/<num>) failed'],
    ["can't find user 'bob' (timeout)!", "can't find user <str> (timeout)!"],
    ['request body {"user": 42}', 'request body {"user": <num>}'],
    ['connection from 10.0.0.12:54321 refused', 'connection from <ip>:<num> refused'],
    ['server started', 'server started'],
    ['', ''],
  ])('%j is named %j', (message, want) => {
    expect(name(message)).toBe(want);
  });

  it('hashes the same words as the reference tokenizer, and never replaces a word', () => {
    for (const [message] of CASES) {
      const g = groupTemplate(templateMessage(message));
      expect([message, g.words]).toEqual([message, messageWords(message)]);
      expect([message, messageWords(g.name)]).toEqual([message, messageWords(message)]);
    }
  });

  it('gives one name to a group of hex ids whichever member came first, one with no letter included', () => {
    const named = (message: string) => groupTemplate(templateMessage(message, { groupName: true }));
    const groups = ['job 12345678 queued', 'job 9f3a2b1c queued', 'job 4407 queued'].map(named);
    expect(new Set(groups.map((g) => g.words.join(' ')))).toEqual(new Set(['job queued']));
    expect(new Set(groups.map((g) => g.name))).toEqual(new Set(['job <num> queued']));
    expect(named('trace 4bf92f3577b34da6a3ce929d0e0e4736 at 0x7ffd5e8a1b2c').name).toBe('trace <num> at <hex>');
    // The row template keeps <hex> (a JSON statement's template is hashed into its group id).
    expect(templateMessage('job 9f3a2b1c queued')).toBe('job <hex> queued');
  });

  it('gives one name to the messages of one group (four routes, one group)', () => {
    const routes = ['/api/checkout', '/api/cart/items', '/api/products', '/api/recommendations'];
    const groups = routes.map((r, i) => groupTemplate(templateMessage(`slow request to ${r} took ${i + 1}s`)));
    expect(new Set(groups.map((g) => g.words.join(' '))).size).toBe(1);
    expect(new Set(groups.map((g) => g.name))).toEqual(new Set(['slow request to <path> took <duration>']));
  });
});
