import { Autocomplete, TextField } from '@mui/material';
import { useAttrKeys, useAttrValues } from '../../tracing/tracingApi';
import { matcherAttrKeys } from './monitorFormRules';

type Range = { time_gte: string; time_lt: string };
/**
 * The field's words and test id; the error monitor form's by default (the e-mail settings name
 * theirs). `error`: what is wrong with the value, shown under the field.
 */
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
