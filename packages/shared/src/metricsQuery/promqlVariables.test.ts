import { describe, expect, it } from 'vitest';
import { substitutePromqlVariables } from './promqlVariables';

const sub = (q: string, vars: Record<string, string[] | 'all'>) =>
  substitutePromqlVariables(q, new Map(Object.entries(vars)));

describe('PromQL variables', () => {
  it('writes one value as it is, in $name and ${name} form', () => {
    expect(sub('sum(rate(http_requests_total{service="$service"}[5m]))', { service: ['checkout'] })).toBe(
      'sum(rate(http_requests_total{service="checkout"}[5m]))',
    );
    expect(sub('up{job="${job}-x"}', { job: ['api'] })).toBe('up{job="api-x"}');
    expect(sub("up{job!='$job'}", { job: ['a'] })).toBe("up{job!='a'}");
  });

  it('in a regex matcher: several as (a|b), All as .*, values regex-escaped in the string', () => {
    expect(sub('up{service=~"$service"}', { service: ['cart', 'pay'] })).toBe('up{service=~"(cart|pay)"}');
    expect(sub('up{service=~"$service"}', { service: 'all' })).toBe('up{service=~".*"}');
    expect(sub('up{service!~"${service}"}', { service: ['a.b'] })).toBe('up{service!~"a\\\\.b"}');
    expect(sub('up{service=~`$service`}', { service: ['a.b', 'c'] })).toBe('up{service=~`(a\\.b|c)`}');
  });

  it('an equality matcher of the variable alone becomes its regex for several or All', () => {
    expect(sub('up{service="$service"}', { service: ['cart', 'pay'] })).toBe('up{service=~"(cart|pay)"}');
    expect(sub('up{service = "$service"}', { service: 'all' })).toBe('up{service =~".*"}');
    expect(sub('up{service!="$service"}', { service: ['a', 'b'] })).toBe('up{service!~"(a|b)"}');
    expect(sub('up{service="$service"}', { service: ['a"b'] })).toBe('up{service="a\\"b"}');
  });

  it('outside strings: a label list; unknown names, $1 and strings without variables stay', () => {
    expect(sub('sum by ($group) (up)', { group: ['host', 'job'] })).toBe('sum by (host, job) (up)');
    expect(sub('sum by ($group) (up{a="$other"})', { group: ['host'] })).toBe('sum by (host) (up{a="$other"})');
    expect(sub('label_replace(up, "dst", "$1", "src", "(.*)") and up{x="$$"}', { service: ['a'] })).toBe(
      'label_replace(up, "dst", "$1", "src", "(.*)") and up{x="$$"}',
    );
    expect(sub('up', { service: ['a'] })).toBe('up');
  });
});
