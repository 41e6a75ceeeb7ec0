/** The explorer's default groups query, as the bench cases ask it. */
export const DEFAULT_QUERY = 'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)';

/**
 * Filters of the filtered-query cases (issue 17, item 5), against the generated data set
 * (generate.ts): a column attribute (service of 10, host of 50, the one environment) or an
 * attribute of the arrays (route of 40, user of 10,000).
 */
export const FILTERS: [label: string, where: string][] = [
  ['service', 'where service.name = "svc-3"'],
  ['host', 'where host.name = "host-7"'],
  ['env', 'where deployment.environment = "prod"'],
  ['route', 'where http.route = "/api/v1/resource7"'],
  ['user', 'where enduser.id = "user-42"'],
];
