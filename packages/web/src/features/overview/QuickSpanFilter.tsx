import { Autocomplete, Box, Button, Checkbox, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { externalLinks } from '../../lib/routes/paths';
import { formatNum } from '@lantern/shared';
import { selectionText } from '../tracing/system/SystemPicker';
import { selectedValues, withValues } from '../tracing/query/facetFilter';
import { useAttrValues, type RangeQuery } from '../tracing/tracingApi';

/** 'env: ' / 'service: ' quick filters: a multi-select of an attribute's values that writes a where part (spec §2 Overview). */
export function QuickSpanFilter({
  projectId,
  range,
  label,
  attr,
  query,
  onQuery,
}: {
  projectId: number;
  range: RangeQuery;
  label: string;
  attr: string;
  query: string;
  onQuery: (q: string) => void;
}) {
  // Values load when the list first opens (then stay cached): the page's first paint waits for nothing it does not show.
  const [wanted, setWanted] = useState(false);
  const { data, isPending } = useAttrValues(projectId, { ...range, attr_key: attr }, wanted);
  const selected = selectedValues(query, attr);
  const items = data?.items ?? [];
  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      size="small"
      loading={wanted && isPending}
      onOpen={() => setWanted(true)}
      options={[...new Set([...items.map((i) => i.value), ...selected])]}
      value={selected}
      onChange={(_e, v) => onQuery(withValues(query, attr, v))}
      noOptionsText={
        <Box data-testid={`quick-filter-empty-${attr}`}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            To start filtering, set <code>{attr}</code> attribute.
          </Typography>
          <Button size="small" variant="contained" component={RouterLink} to={externalLinks.docs} target="_blank">
            Open documentation
          </Button>
        </Box>
      }
      renderValue={(v) => (
        <Box component="span" sx={{ px: 0.5, whiteSpace: 'nowrap' }}>
          {selectionText(v)}
        </Box>
      )}
      renderOption={(props, option, { selected: on }) => {
        const { key, ...rest } = props as typeof props & { key: string };
        const count = items.find((i) => i.value === option)?.count ?? 0;
        return (
          <li key={key} {...rest} data-testid="quick-filter-option">
            <Checkbox size="small" checked={on} sx={{ p: 0.5, mr: 1 }} />
            <Box sx={{ flexGrow: 1 }}>{option}</Box>
            <Box sx={{ color: 'text.secondary', ml: 2 }}>{formatNum(count)}</Box>
          </li>
        );
      }}
      sx={{ minWidth: 200, bgcolor: '#E1F5FE' }}
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={selected.length ? undefined : 'none'}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              startAdornment: [
                <Box key="p" component="span" sx={{ color: 'text.secondary', pl: 1 }}>
                  {label}
                </Box>,
                params.slotProps.input.startAdornment,
              ],
            },
          }}
        />
      )}
      data-testid={`quick-filter-${attr}`}
    />
  );
}
