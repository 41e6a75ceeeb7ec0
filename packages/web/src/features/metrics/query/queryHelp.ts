/** Examples of the query builder's help, one per kind of part (reference query §3); each is checked to parse. */
export const EXAMPLES: [string, string][] = [
  ['per_min($requests)', 'Rate of a counter per minute (per_sec for per second)'],
  ['sum($requests) as total', 'Sum over every timeseries, as a column named total'],
  ['p90($latency) | p99($latency)', 'Percentiles of a histogram; each aggregation part is a column'],
  ['avg($mem) / 1024', 'Arithmetic between columns and numbers'],
  ['where service.name = api', 'Keep timeseries whose attribute matches (=, !=, ~, !~, exists, in)'],
  ['where host.name != db-1 and region = eu', 'Several conditions joined with and / or'],
  ['group by host.name', 'One timeseries per value of an attribute'],
];
