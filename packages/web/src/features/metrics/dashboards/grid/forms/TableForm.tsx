import { joinQuery, useMetricTable } from '../gridApi';
import { TablePanel } from '../panels/TablePanel';
import { MetricsFields, useMetricsState } from './MetricsFields';
import { PanelForm, usePanelFormBase, type ColumnFormProps } from './PanelForm';

/** New / Edit table panel: metrics, query (aggregations and group by), units, with the live table. */
export function TableForm(props: ColumnFormProps) {
  const { projectId, column, range, gridQuery } = props;
  const base = usePanelFormBase(props);
  const m = useMetricsState(column?.type === 'table' ? column.params : undefined);
  const effective = joinQuery(m.query, gridQuery);
  const preview = useMetricTable(projectId, { metrics: m.metrics, query: effective }, range);
  const params = { metrics: m.metrics, query: m.query, columnMap: m.columnMap };

  return (
    <PanelForm
      type="table"
      form={props}
      base={base}
      params={{ type: 'table', params }}
      valid={!m.error}
      preview={
        m.metrics.length ? (
          <TablePanel projectId={projectId} params={params} query={effective} range={range} height={360} perPage={10} />
        ) : undefined
      }
    >
      <MetricsFields projectId={projectId} state={m} submitted={base.submitted} range={range} preview={preview.data} />
    </PanelForm>
  );
}
