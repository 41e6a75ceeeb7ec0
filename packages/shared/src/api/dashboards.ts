import { z } from 'zod';
import { MAX_DB_INT, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from './textLimits';
import { METRIC_ALIAS_RE } from '../metricAliasRules';
import { VARIABLE_NAME_RE } from '../metricsQuery/variables';

/**
 * Dashboards API contracts (spec tracing-and-metrics §Dashboards, reference alerting-dashboards §4).
 * Every path is under `/api/v1/metrics/{projectId}/dashboards`. Ids are strings on the wire.
 */

/** The most grid items (charts, tables, heatmaps) and the most gauges (both rows together) a dashboard holds. */
export const MAX_GRID_ITEMS = 20;
export const MAX_GAUGES = 20;
/** Dashboards per project (created, cloned or imported from YAML): the list shows up to this many. */
export const MAX_DASHBOARDS = 1000;
/**
 * The most entries a column map (unit and colour by column name) and a series style map (by series
 * name) hold: a query has far fewer columns, and a chart shows far fewer series to style by hand.
 */
export const MAX_COLUMN_MAP_ENTRIES = 100;
export const MAX_TIMESERIES_MAP_ENTRIES = 1000;

/** Longest names and texts (queries, descriptions, templates) a dashboard stores. */
const nameText = () => z.string().max(MAX_NAME_LENGTH, `is longer than ${MAX_NAME_LENGTH} characters`);
const longText = () => z.string().max(MAX_TEXT_LENGTH, `is longer than ${MAX_TEXT_LENGTH} characters`);
/** A grid item's size or position: stored as a database integer. */
const size = () => z.number().int().min(0).max(MAX_DB_INT);

export const MetricAlias = z.object({
  name: nameText().min(1, "metric name can't be empty"),
  alias: nameText().min(1, "metric alias can't be empty").regex(METRIC_ALIAS_RE, 'invalid alias'),
});
export type MetricAlias = z.infer<typeof MetricAlias>;

export const MetricColumnInfo = z.object({ unit: nameText().default(''), color: nameText().default('') });
/** A record of at most `max` entries. */
const capped = <T extends z.ZodType>(value: T, max: number, what: string) =>
  z.record(nameText(), value).refine((m) => Object.keys(m).length <= max, `can't have more than ${max} ${what}`);
/** Keyed by column name. */
export const ColumnMap = capped(MetricColumnInfo, MAX_COLUMN_MAP_ENTRIES, 'columns');
export type ColumnMap = z.infer<typeof ColumnMap>;

/** The most variables a dashboard holds, and the most values a fixed list offers. */
export const MAX_VARIABLES = 10;
export const MAX_VARIABLE_VALUES = 100;

/**
 * A dashboard variable (issue 41, Grafana's template variables): a picker above the grid whose
 * value replaces `$name` in every panel's query (`where service.name = $service`, `group by $group`;
 * metricsQuery/variables.ts). Its values are those of an attribute of a metric in the range
 * (`kind: 'attribute'`), or a fixed list. `multi` lets several be picked; `includeAll` offers All
 * (the filter drops), which is then the default; otherwise the first value is. `query` filters an
 * attribute's values by the variables before it.
 */
export const DashboardVariable = z.object({
  name: nameText().regex(VARIABLE_NAME_RE, 'a variable name is letters, digits and _, not starting with a digit'),
  label: nameText().default(''),
  kind: z.enum(['attribute', 'list']),
  /** `kind: 'attribute'`: the metric and attribute whose values are offered. */
  metric: nameText().default(''),
  attr: nameText().default(''),
  /** `kind: 'list'`: the values offered. */
  values: z
    .array(nameText())
    .max(MAX_VARIABLE_VALUES, `a variable offers at most ${MAX_VARIABLE_VALUES} values`)
    .default([]),
  multi: z.boolean().default(false),
  includeAll: z.boolean().default(false),
  /**
   * `kind: 'attribute'`: a filter of the values (`where service.name = $service`), which may name
   * the variables before this one: its values follow theirs (Grafana's chained variables).
   */
  query: longText().default(''),
});
export type DashboardVariable = z.infer<typeof DashboardVariable>;
export const DashboardVariables = z
  .array(DashboardVariable)
  .max(MAX_VARIABLES, `a dashboard has at most ${MAX_VARIABLES} variables`);

/** A dashboard's tags (the dashboards page filters by them): at most 10, each a short word or phrase. */
export const MAX_TAGS = 10;
export const DashboardTags = z
  .array(z.string().trim().min(1, "a tag can't be empty").max(50, 'a tag is at most 50 characters'))
  .max(MAX_TAGS, `a dashboard has at most ${MAX_TAGS} tags`)
  .refine((t) => new Set(t).size === t.length, 'a tag is there twice');

export const Dashboard = z.object({
  id: z.string(),
  projectId: z.number().int(),
  templateId: z.string(),
  name: z.string(),
  pinned: z.boolean(),
  gridQuery: z.string(),
  tableMetrics: z.array(MetricAlias),
  tableQuery: z.string(),
  tableGrouping: z.array(z.string()),
  tableColumnMap: ColumnMap,
  variables: z.array(DashboardVariable),
  tags: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const ChartKind = z.enum(['line', 'area', 'bar', 'stacked-area', 'stacked-bar']);
export const TimeseriesStyle = z.object({
  color: nameText().default(''),
  opacity: z.number().default(15),
  lineWidth: z.number().default(2),
  symbol: nameText().default('none'),
  symbolSize: z.number().default(4),
});
export const Legend = z.object({
  type: z.enum(['none', 'list', 'table']).default('list'),
  placement: z.enum(['bottom', 'right']).default('bottom'),
  values: z.array(z.enum(['avg', 'last', 'min', 'max'])).default(['avg']),
});

export const ChartParams = z.object({
  chartKind: ChartKind.default('line'),
  metrics: z.array(MetricAlias),
  query: longText(),
  columnMap: ColumnMap.default({}),
  /** Keyed by series name. */
  timeseriesMap: capped(TimeseriesStyle, MAX_TIMESERIES_MAP_ENTRIES, 'series').default({}),
  legend: Legend.optional(),
});
export const TableParams = z.object({
  metrics: z.array(MetricAlias),
  query: longText(),
  columnMap: ColumnMap.default({}),
});
export const HeatmapParams = z.object({
  metric: nameText(),
  unit: nameText().default(''),
  query: longText().default(''),
});

/** A chart of one PromQL query, answered by Lantern's Prometheus API over the dashboard's range. */
export const PromqlParams = z.object({
  query: longText(),
  chartKind: ChartKind.default('line'),
  /** The unit of the query's values (PromQL has none): `bytes`, `seconds`, ... or empty. */
  unit: nameText().default(''),
});

export const GridColumnType = z.enum(['chart', 'table', 'heatmap', 'promql']);
export type GridColumnType = z.infer<typeof GridColumnType>;

export const GridColumnInput = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('chart'), params: ChartParams }),
    z.object({ type: z.literal('table'), params: TableParams }),
    z.object({ type: z.literal('heatmap'), params: HeatmapParams }),
    z.object({ type: z.literal('promql'), params: PromqlParams }),
  ])
  .and(
    z.object({
      name: nameText(),
      description: longText().default(''),
      gridQueryTemplate: longText().default(''),
      width: size().default(0),
      height: size().default(0),
      xAxis: size().default(0),
      yAxis: size().default(0),
    }),
  );
export type GridColumnInput = z.infer<typeof GridColumnInput>;

export type GridColumn = GridColumnInput & {
  id: string;
  projectId: number;
  dashId: string;
  createdAt: string;
  updatedAt: string;
};

export const DashKind = z.enum(['grid', 'table']);
export type DashKind = z.infer<typeof DashKind>;

/** The most threshold steps a gauge holds (Grafana's base colour and a few steps above it). */
export const MAX_GAUGE_THRESHOLDS = 10;
/** A colour: `#rgb`/`#rrggbb` (the form's swatches) or a CSS colour name (`green`, as Grafana writes). */
const colorText = () =>
  z
    .string()
    .regex(/^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$/, 'expected a colour: #rrggbb or a name like green');
/** One threshold step: from `value` up (to the next step's value) the gauge takes `color`. */
export const GaugeThreshold = z.object({ value: z.number().finite(), color: colorText() });
export type GaugeThreshold = z.infer<typeof GaugeThreshold>;

/**
 * How a gauge shows its value (issue 41, Grafana's Stat and Gauge panels): `text` (the formatted
 * value or template sentence), `stat` (one big number) or `dial` (a dial from `min` to `max`).
 * `thresholds` are ascending steps; the value takes the colour of the highest step it reaches, and
 * below the first step the gauge's own colour (its column's, else blue). A dial's bands follow them.
 */
export const GaugeLook = z.object({
  display: z.enum(['text', 'stat', 'dial']).default('text'),
  thresholds: z
    .array(GaugeThreshold)
    .max(MAX_GAUGE_THRESHOLDS, `a gauge has at most ${MAX_GAUGE_THRESHOLDS} thresholds`)
    .refine((t) => t.every((x, i) => i === 0 || t[i - 1].value < x.value), 'thresholds must go up, each above the last')
    .default([]),
  min: z.number().finite().default(0),
  max: z.number().finite().default(100),
});
export type GaugeLook = z.infer<typeof GaugeLook>;

export const GaugeInput = z.object({
  dashKind: DashKind,
  name: nameText(),
  /** Optional (issue 41): the card's tooltip falls back to the name. */
  description: longText().default(''),
  template: longText().default(''),
  metrics: z.array(MetricAlias),
  query: longText(),
  columnMap: ColumnMap.default({}),
  gridQueryTemplate: longText().default(''),
  ...GaugeLook.shape,
});
export type GaugeInput = z.infer<typeof GaugeInput>;
export type Gauge = GaugeInput & {
  id: string;
  projectId: number;
  dashId: string;
  createdAt: string;
  updatedAt: string;
};

export const CreateDashboardBody = z.object({ name: nameText() });
export const UpdateDashboardBody = z.object({
  name: nameText().optional(),
  gridQuery: longText().optional(),
  variables: DashboardVariables.optional(),
  tags: DashboardTags.optional(),
});

/** A built-in template as the gallery behind "New dashboard" shows it. */
export const DashboardTemplate = z.object({
  id: z.string(),
  name: z.string(),
  /** One line: what the template shows. */
  description: z.string(),
  tags: z.array(z.string()),
});
export type DashboardTemplate = z.infer<typeof DashboardTemplate>;
export const UpdateDashboardTableBody = z.object({
  tableMetrics: z.array(MetricAlias),
  tableQuery: longText(),
  tableColumnMap: ColumnMap.default({}),
});
export const GridLayoutBody = z
  .array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      width: size(),
      height: size(),
      xAxis: size(),
      yAxis: size(),
    }),
  )
  .max(MAX_GRID_ITEMS, `dashboard grid can't have more than ${MAX_GRID_ITEMS} columns`);
export const GaugeOrderBody = z
  .array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      index: z.number().int().min(-MAX_DB_INT).max(MAX_DB_INT),
    }),
  )
  .max(MAX_GAUGES, `dashboard can't have more than ${MAX_GAUGES} gauges`);

export interface DashboardResponse {
  dashboard: Dashboard;
}
export interface DashboardShowResponse {
  dashboard: Dashboard;
  grid: GridColumn[];
  yamlUrl: string;
}
