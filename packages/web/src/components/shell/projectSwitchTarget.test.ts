import { describe, expect, it } from 'vitest';
import { projectSwitchTarget } from './projectSwitchTarget';

describe('projectSwitchTarget', () => {
  it('keeps a route whose only parameter is projectId', () => {
    expect(projectSwitchTarget('/projects/1', { projectId: '1' }, 2)).toBe('/projects/2');
    expect(projectSwitchTarget('/alerting/1/monitors', { projectId: '1' }, 22)).toBe('/alerting/22/monitors');
    expect(projectSwitchTarget('/help/1', { projectId: '1' }, 3)).toBe('/help/3');
  });

  it('goes to Overview when the route has other parameters', () => {
    expect(projectSwitchTarget('/traces/1/abc', { projectId: '1', traceId: 'abc' }, 2)).toBe('/overview/2');
    expect(projectSwitchTarget('/alerting/1/alerts/5', { projectId: '1', alertId: '5' }, 2)).toBe('/overview/2');
  });

  it('goes to Overview when the route has no project', () => {
    expect(projectSwitchTarget('/traces/abc', { traceId: 'abc' }, 2)).toBe('/overview/2');
    expect(projectSwitchTarget('/', {}, 2)).toBe('/overview/2');
  });
});
