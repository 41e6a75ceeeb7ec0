import { describe, it, expect } from 'vitest';
import type { AttrMap } from '../spanRow';
import { joinName, joinTypeMessage, logDisplayName, rowNames } from './displayName';
import { templateMessage } from './messageTemplate';

const rule = (displayName: string, groupName = '') => ({ displayName, groupName });
const displayNameFor = (attrs: AttrMap, ruleName: string, eventName: string, name: string) =>
  rowNames(attrs, rule(ruleName), eventName, name).displayName;

describe('rowNames: display names (reference ingest §2.9)', () => {
  it.each<[string, AttrMap, string, string, string, string]>([
    ['display.name overrides', { 'display.name': 'Checkout' }, 'SELECT 1', 'ev', 'span', 'Checkout'],
    ['empty display.name ignored', { 'display.name': '' }, '', '', 'span', 'span'],
    ['non-string display.name ignored', { 'display.name': 5 }, '', '', 'span', 'span'],
    ['rule name next', {}, 'SELECT 1', 'ev', 'span', 'SELECT 1'],
    ['then event name', {}, '', 'ev', 'span', 'ev'],
    ['then span name', {}, '', '', 'span', 'span'],
    ['then <empty>', {}, '', '', '', '<empty>'],
  ])('%s', (_name, attrs, rule, eventName, name, want) => {
    expect(displayNameFor({ ...attrs }, rule, eventName, name)).toBe(want);
  });

  it('removes display.name from the attributes', () => {
    const attrs: AttrMap = { 'display.name': 'X', a: 1 };
    displayNameFor(attrs, '', '', 'n');
    expect(attrs).toEqual({ a: 1 });
  });

  it('truncates to 200 bytes', () => {
    const out = displayNameFor({}, 'x'.repeat(300), '', '');
    expect(out).toHaveLength(200);
    expect(out.endsWith('...')).toBe(true);
    expect(displayNameFor({ 'display.name': 'é'.repeat(150) }, '', '', '')).toBe('é'.repeat(98) + '...');
  });
});

describe('rowNames: group names (issue 20)', () => {
  it.each<[string, AttrMap, [string, string], { displayName: string; groupName: string }]>([
    [
      'the rule template names the group',
      {},
      ['GET user:42', 'GET user:<num>'],
      { displayName: 'GET user:42', groupName: 'GET user:<num>' },
    ],
    ['a rule without a template: its text', {}, ['SENT', ''], { displayName: 'SENT', groupName: 'SENT' }],
    [
      'display.name names both, untemplated',
      { 'display.name': 'order 42' },
      ['GET user:42', 'GET user:<num>'],
      { displayName: 'order 42', groupName: 'order 42' },
    ],
    ['no rule: the span name names both', {}, ['', ''], { displayName: 'span', groupName: 'span' }],
  ])('%s', (_name, attrs, [ruleName, ruleGroup], want) => {
    expect(rowNames({ ...attrs }, rule(ruleName, ruleGroup), '', 'span')).toEqual(want);
  });

  it('truncates the group name like the display name', () => {
    expect(rowNames({}, rule('x'.repeat(300), 'y'.repeat(300)), '', '').groupName).toBe('y'.repeat(197) + '...');
  });
});

describe('joinTypeMessage / joinName', () => {
  it.each([
    ['Error', '', 'Error'],
    ['Error', 'boom', 'Error: boom'],
    ['Error', 'Error: boom', 'Error: boom'],
    ['', 'boom', 'boom'],
  ])('%j + %j → %j', (type, msg, want) => {
    expect(joinTypeMessage(type, msg)).toBe(want);
  });

  it('joinName leaves out an empty name', () => {
    expect(joinName('', 'SENT')).toBe('SENT');
    expect(joinName('svc/M', 'SENT')).toBe('svc/M SENT');
  });
});

describe('logDisplayName', () => {
  it.each<[string, AttrMap, AttrMap, string]>([
    ['severity + message', { 'log.message': 'user logged in' }, {}, 'INFO user logged in'],
    ['message already starting with the severity', { 'log.message': 'INFO: ready' }, {}, 'INFO: ready'],
    ['exception fallback', { 'exception.type': 'E', 'exception.message': 'bad' }, {}, 'E: bad'],
    ['own attributes as JSON', { 'service.name': 'api', a: 1 }, { a: 1 }, '{"a":1}'],
    ['event name last', { 'service.name': 'api' }, {}, 'log'],
  ])('%s', (_name, attrs, own, want) => {
    expect(logDisplayName('INFO', attrs, own, 'log')).toBe(want);
  });

  it.each<[string, AttrMap, AttrMap, string]>([
    ['message template', { 'log.message': 'user 42 logged in' }, {}, 'INFO user <num> logged in'],
    [
      'exception message template, type kept',
      { 'exception.type': 'E1', 'exception.message': 'id 7' },
      {},
      'E1: id <num>',
    ],
    ['own attributes JSON template', { a: 1 }, { a: 1, b: 'x' }, '{"a":<num>,"b":<str>}'],
  ])('with a templater: %s', (_name, attrs, own, want) => {
    expect(logDisplayName('INFO', attrs, own, 'log', templateMessage)).toBe(want);
  });
});
