import { paths } from '../../../../lib/routes/paths';
import { defaultGroupQuery } from '../../query/defaultQueries';

/**
 * The Timeseries tab of Explore spans with What changed open on `selection` (issue 38): the systems,
 * the default group query keeping the `where` parts of `query`, and the address's time params.
 */
export function whatChangedPath(
  projectId: number,
  to: { systems: string[]; query: string; time: { time_gte?: string; time_dur?: string } },
  selection: string,
): string {
  return paths.spanTimeseries(projectId, {
    system: to.systems,
    query: defaultGroupQuery(to.systems, to.query),
    ...to.time,
    selection,
  });
}
