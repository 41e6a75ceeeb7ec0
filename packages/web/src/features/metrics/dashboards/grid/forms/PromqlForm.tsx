import { Typography } from '@mui/material';
import { useCallback, useState } from 'react';
import type { ChartKind } from '../../../../../components/charts/chartOptions';
import { PromqlEditor } from '../../../promql/PromqlEditor';
import { PromqlChartPanel } from '../panels/PromqlChartPanel';
import { ChartKindField } from './ChartForm';
import { PanelForm, usePanelFormBase, type ColumnFormProps } from './PanelForm';
import { UnitField } from './UnitField';

/**
 * New / Edit PromQL panel: the query in Prometheus's editor (completion from Lantern's Prometheus
 * API; Enter shows it in the preview), the chart kind and the unit of its values.
 */
export function PromqlForm(props: ColumnFormProps) {
  const { projectId, column, range } = props;
  const init = column?.type === 'promql' ? column.params : undefined;
  const base = usePanelFormBase(props);
  const [draft, setDraft] = useState(init?.query ?? '');
  const [query, setQuery] = useState(init?.query ?? '');
  const [kind, setKind] = useState<ChartKind>(init?.chartKind ?? 'line');
  const [unit, setUnit] = useState(init?.unit ?? '');
  const queryErr = base.submitted && !draft.trim() ? 'Type a PromQL query' : undefined;
  const params = { query: draft.trim(), chartKind: kind, unit };
  const preview = useCallback((q: string) => setQuery(q.trim()), []);

  return (
    <PanelForm
      type="promql"
      form={props}
      base={base}
      params={{ type: 'promql', params }}
      valid={!!params.query}
      preview={
        query ? (
          <PromqlChartPanel projectId={projectId} params={{ ...params, query }} range={range} height={360} />
        ) : undefined
      }
    >
      <PromqlEditor projectId={projectId} value={draft} onChange={setDraft} onRun={preview} />
      <Typography variant="caption" color={queryErr ? 'error' : 'text.secondary'} sx={{ mt: -1.5 }}>
        {queryErr ?? 'Press Enter to preview. Lantern answers PromQL at one point a minute.'}
      </Typography>
      <ChartKindField value={kind} onChange={setKind} />
      <UnitField label="Unit" value={unit} onChange={setUnit} testId="promql-unit" />
    </PanelForm>
  );
}
