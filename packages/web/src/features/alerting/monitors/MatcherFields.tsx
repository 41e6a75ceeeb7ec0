import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import { Autocomplete, Button, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import type { ErrorMatcher } from '@lantern/shared';
import { useAttrKeys, useAttrValues } from '../../tracing/tracingApi';
import { matcherAttrKeys } from './monitorFormRules';

type Range = { time_gte: string; time_lt: string };
/** The field's words and test id. `error`: what is wrong with the value, shown under the field. */
type Look = { label?: string; placeholder?: string; testId?: string; error?: string };

/**
 * An error matcher's attribute field (error monitors, the e-mail settings): free text, with the span attribute keys seen over the
 * range as suggestions (the tracing query builder's keys, without the span columns).
 */
export function MatcherAttrField({
  projectId,
  range,
  value,
  onChange,
  label = 'Attribute',
  placeholder = 'service.name',
  testId = 'matcher-attr',
  error,
}: {
  projectId: number;
  range: Range;
  value: string;
  onChange: (v: string) => void;
} & Look) {
  const keys = useAttrKeys(projectId, range);
  return (
    <SuggestingField
      options={matcherAttrKeys(keys.data?.items ?? [])}
      value={value}
      onChange={onChange}
      label={label}
      placeholder={placeholder}
      testId={testId}
      error={error}
    />
  );
}

/** The matcher's value: free text, with the values of its attribute seen over the range as suggestions. */
export function MatcherValueField({
  projectId,
  range,
  attr,
  value,
  onChange,
  label = 'Value',
  placeholder,
  testId = 'matcher-value',
  error,
}: {
  projectId: number;
  range: Range;
  attr: string;
  value: string;
  onChange: (v: string) => void;
} & Look) {
  const key = attr.trim();
  const values = useAttrValues(projectId, { ...range, attr_key: key }, key !== '' && !key.startsWith('.'));
  return (
    <SuggestingField
      options={key ? (values.data?.items ?? []).map((i) => i.value) : []}
      value={value}
      onChange={onChange}
      label={label}
      placeholder={placeholder}
      testId={testId}
      error={error}
    />
  );
}

/**
 * Free text with suggestions: a pick and typing both set the value. Enter takes the suggestion or
 * the text and stays in the field: it does not submit the form around it (a monitor saved while
 * its matcher was half typed).
 */
function SuggestingField({
  options,
  value,
  onChange,
  label,
  placeholder,
  testId,
  error,
}: { options: string[]; value: string; onChange: (v: string) => void } & Look) {
  return (
    <Autocomplete
      size="small"
      freeSolo
      options={options}
      inputValue={value}
      onChange={(_e, v) => onChange(v ?? '')}
      onInputChange={(_e, v, reason) => reason !== 'reset' && onChange(v)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.preventDefault();
      }}
      sx={{ flex: 1 }}
      renderInput={(p) => (
        <TextField
          {...p}
          label={label}
          placeholder={placeholder}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** The test ids of a matcher list's parts (the error monitor form's and the e-mail settings' differ). */
export interface MatcherTestIds {
  row: string;
  attr: string;
  op: string;
  value: string;
  remove: string;
  add: string;
}

/**
 * Error matchers as rows, the one look of the error monitor form and the e-mail settings: "AND"
 * before every row but the first, the attribute, the operator, the value (both suggesting what the
 * spans of `range` have), a remove button at the end, and "Add a matcher" below. `fixedOp`: the
 * list matches with = only (the e-mail settings): the operator shows, but cannot change.
 */
export function MatcherRows({
  projectId,
  range,
  matchers,
  onChange,
  onRemove,
  onAdd,
  canRemove = () => true,
  canAdd = true,
  errors,
  fixedOp,
  testIds,
}: {
  projectId: number;
  range: Range;
  matchers: ErrorMatcher[];
  onChange: (i: number, m: ErrorMatcher) => void;
  onRemove: (i: number) => void;
  onAdd: () => void;
  canRemove?: (i: number) => boolean;
  canAdd?: boolean;
  errors?: (m: ErrorMatcher) => { attr?: string; value?: string };
  fixedOp?: boolean;
  testIds: MatcherTestIds;
}) {
  return (
    <Stack spacing={1}>
      {matchers.map((m, i) => {
        const err = errors?.(m) ?? {};
        return (
          // Fields line up at the top: a field's error message below it does not move the others.
          <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid={testIds.row}>
            {/* The first row keeps the AND's room empty, so every row's fields line up (the
                Stack's spacing overrides a margin on its first child). */}
            <Typography variant="caption" color="text.secondary" sx={{ width: 32, flexShrink: 0, lineHeight: '40px' }}>
              {i > 0 ? 'AND' : ''}
            </Typography>
            <MatcherAttrField
              projectId={projectId}
              range={range}
              value={m.attr}
              onChange={(attr) => onChange(i, { ...m, attr })}
              testId={testIds.attr}
              error={err.attr}
            />
            <TextField
              select
              size="small"
              value={m.op}
              disabled={fixedOp}
              onChange={(e) => onChange(i, { ...m, op: e.target.value as '=' | '!=' })}
              sx={{ width: 80, flexShrink: 0 }}
              slotProps={{ htmlInput: { 'data-testid': testIds.op } }}
            >
              <MenuItem value="=">=</MenuItem>
              <MenuItem value="!=">!=</MenuItem>
            </TextField>
            <MatcherValueField
              projectId={projectId}
              range={range}
              attr={m.attr}
              value={m.value}
              onChange={(value) => onChange(i, { ...m, value })}
              testId={testIds.value}
              error={err.value}
            />
            <Tooltip title="Remove matcher">
              {/* A span keeps the tooltip working on a disabled button. */}
              <span>
                <IconButton
                  size="small"
                  aria-label="Remove matcher"
                  disabled={!canRemove(i)}
                  onClick={() => onRemove(i)}
                  data-testid={testIds.remove}
                  sx={{ mt: 0.5 }}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
        );
      })}
      <Button
        size="small"
        startIcon={<AddIcon />}
        disabled={!canAdd}
        onClick={onAdd}
        sx={{ alignSelf: 'flex-start' }}
        data-testid={testIds.add}
      >
        Add a matcher
      </Button>
    </Stack>
  );
}
