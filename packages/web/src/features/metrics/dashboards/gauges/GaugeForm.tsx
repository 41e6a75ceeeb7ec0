import { Box, Paper, TextField, Typography } from '@mui/material';
import { GaugeLook, type DashKind, type Gauge } from '@lantern/shared';
import { useState } from 'react';
import { FormShell } from '../grid/forms/FormShell';
import { GridQueryTemplateField } from '../grid/forms/GridQueryTemplateField';
import { MetricsFields, useMetricsState } from '../grid/forms/MetricsFields';
import { required } from '../grid/forms/validation';
import { joinQuery, useGaugeValues, useSaveGauge, type Range } from '../grid/gridApi';
import { queryError } from '../grid/units';
import { GaugeFace } from './GaugeFace';
import { gaugeFace } from './gaugeLook';
import { GaugeLookFields, lookErrors } from './GaugeLookFields';

/**
 * New / Edit gauge (reference frontend §1.3.13): metrics, query, units, an optional template
 * with `${column}` placeholders, how it shows (text, stat or dial with thresholds, issue 41), name (required, spec §5) and an optional description (issue 41), and a live preview
 * card of the formatted value. A grid gauge also has an Advanced grid query template, used in a table
 * row's dialog as a chart's is.
 */
export function GaugeForm({
  projectId,
  dashId,
  dashKind,
  gauge,
  range,
  query: extraQuery,
  editable,
  onClose,
}: {
  projectId: number;
  dashId: string;
  dashKind: DashKind;
  gauge?: Gauge;
  range: Range;
  query?: string;
  editable: boolean;
  onClose: () => void;
}) {
  const m = useMetricsState(gauge);
  const { metrics, query, columnMap } = m;
  const [template, setTemplate] = useState(gauge?.template ?? '');
  const [name, setName] = useState(gauge?.name ?? '');
  const [description, setDescription] = useState(gauge?.description ?? '');
  const [gridQueryTemplate, setGridQueryTemplate] = useState(gauge?.gridQueryTemplate ?? '');
  const [look, setLook] = useState(() => GaugeLook.parse(gauge ?? {}));
  const [submitted, setSubmitted] = useState(false);
  const save = useSaveGauge(projectId, dashId);
  const preview = useGaugeValues(projectId, { metrics, query: joinQuery(query, extraQuery) }, range);
  const face = gaugeFace({ template, columnMap, thresholds: look.thresholds }, preview.data);
  const value = face.text;
  const previewErr = preview.error?.message ?? queryError(preview.data?.query.parts);

  const errs = {
    metrics: m.error,
    name: required(name, 'Name'),
  };
  const shown = submitted ? errs : { metrics: undefined, name: undefined };
  const submit = () => {
    setSubmitted(true);
    const lookErr = lookErrors(look);
    if (errs.metrics || errs.name || lookErr.range || lookErr.thresholds) return;
    save.mutate(
      {
        id: gauge?.id,
        input: {
          dashKind,
          name: name.trim(),
          description,
          template,
          metrics,
          query,
          columnMap,
          gridQueryTemplate,
          ...look,
        },
      },
      { onSuccess: onClose },
    );
  };

  return (
    <FormShell
      title={gauge ? 'Edit gauge' : 'New gauge'}
      testId="gauge-form"
      width={1000}
      editable={editable}
      isNew={!gauge}
      saving={save.isPending}
      error={save.error?.message}
      onSave={submit}
      onClose={onClose}
      preview={
        <Paper
          variant="outlined"
          sx={{ p: 2, display: 'inline-block', minWidth: 200, borderBottom: `8px solid ${face.color}` }}
          data-testid="gauge-preview"
          data-color={face.color}
        >
          <Typography variant="body2" color="text.secondary">
            {name || 'Gauge name'}
          </Typography>
          <Box data-testid="gauge-preview-value">
            <GaugeFace
              look={look}
              {...face}
              placeholder={metrics.length === 0 ? 'Select a metric first...' : (value ?? '…')}
            />
          </Box>
          {previewErr && (
            <Typography variant="caption" color="error" sx={{ whiteSpace: 'pre-wrap' }}>
              {previewErr}
            </Typography>
          )}
        </Paper>
      }
    >
      <Typography variant="body2" color="text.secondary">
        A gauge shows one value, or a sentence built from several: the template
        <Box component="code" sx={{ mx: 0.5 }}>
          {'${up_dbs} out of ${total_dbs} are up'}
        </Box>
        takes the columns of the query.
      </Typography>
      {/* The gauge's border takes its first column's colour (spec §3 Gauge). */}
      <MetricsFields
        projectId={projectId}
        state={m}
        submitted={submitted}
        range={range}
        preview={preview.data}
        shape="one"
        withColor
      />
      <TextField
        size="small"
        label="Optional format"
        placeholder={'${sum($db_up)} dbs up out of ${count($db_up)}'}
        value={template}
        onChange={(e) => setTemplate(e.target.value)}
        helperText={value !== undefined && metrics.length ? `Formatted value: ${value}` : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'gauge-template' } }}
      />
      <GaugeLookFields look={look} onChange={setLook} submitted={submitted} />
      <TextField
        size="small"
        label="Gauge name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!!shown.name}
        helperText={shown.name}
        slotProps={{ htmlInput: { 'data-testid': 'gauge-name' } }}
      />
      <TextField
        size="small"
        label="Gauge description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        helperText="Optional: shown when pointing at the gauge's name"
        slotProps={{ htmlInput: { 'data-testid': 'gauge-description' } }}
      />
      {dashKind === 'grid' && (
        <GridQueryTemplateField
          value={gridQueryTemplate}
          onChange={setGridQueryTemplate}
          what="grid"
          testId="gauge-grid-query-template"
        />
      )}
    </FormShell>
  );
}
