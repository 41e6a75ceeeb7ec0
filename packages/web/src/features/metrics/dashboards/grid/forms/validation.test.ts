import { describe, expect, it } from 'vitest';
import { aliasError } from '../../../query/queryEdit';
import { metricsError } from './validation';

const m = (alias: string) => ({ name: `shop.${alias || 'x'}`, alias });

describe('metricsError (the forms under the metrics picker)', () => {
  it('needs 1 to 6 metrics', () => {
    expect(metricsError([])).toBe('Select at least one metric');
    expect(metricsError(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(m))).toBe('At most 6 metrics');
    expect(metricsError(['a', 'b'].map(m))).toBeUndefined();
  });

  it('takes every alias the rule takes, a digit or _ first included', () => {
    expect(metricsError([m('5xx'), m('_x'), m('req_2')])).toBeUndefined();
  });

  it('words alias problems as the picker does (spec platform §5)', () => {
    expect(metricsError([m('a-b')])).toBe('Only letters and numbers are allowed');
    expect(metricsError([m('')])).toBe('Alias is required');
    expect(metricsError([m('req'), m('req')])).toBe('Alias is duplicated');
    for (const all of [[m('a-b')], [m('')], [m('req'), m('req')]])
      expect(metricsError(all)).toBe(aliasError(all[0].alias, all));
  });
});
