import { Autocomplete, Box, Checkbox, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import type { SystemStats } from '@lantern/shared';
import { useEffect, useMemo, useState } from 'react';
import { kindOf, pickSystems, systemItems, systemKinds, type SystemKind } from './systemItems';

/** "a, b, N more": only the first two values are shown (spec §5). */
export function selectionText(values: string[]): string {
  if (values.length <= 2) return values.join(', ');
  return `${values.slice(0, 2).join(', ')}, ${values.length - 2} more`;
}

/**
 * System multi-select (reference frontend §1.3.7): a row's checkbox adds or removes it (a `*:all`
 * choice replaces the selection, a specific system drops any `*:all`), the row itself selects only
 * that system; ✕ and an empty selection once loaded select the first item.
 */
export function SystemPicker({
  systems,
  value,
  onChange,
  loading,
  kind,
}: {
  systems: SystemStats[] | undefined;
  value: string[];
  onChange: (systems: string[]) => void;
  loading?: boolean;
  /** Narrows the list to one kind (the system group picker's choice). */
  kind?: SystemKind;
}) {
  const items = useMemo(() => systemItems(systems ?? [], value, kind), [systems, value, kind]);

  useEffect(() => {
    if (!loading && systems && value.length === 0 && items.length > 0) onChange([items[0].system]);
  }, [loading, systems, value.length, items, onChange]);

  const [open, setOpen] = useState(false);
  // Keyboard choices (Enter on an option) toggle like the checkbox.
  const choose = (next: string[]) => {
    const changed = next.find((s) => !value.includes(s)) ?? value.find((s) => !next.includes(s));
    if (changed) onChange(pickSystems(value, changed, 'toggle'));
  };

  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      size="small"
      options={items.map((i) => i.system)}
      value={value}
      onChange={(_e, v, reason) => (reason === 'clear' ? onChange(items.length ? [items[0].system] : []) : choose(v))}
      renderValue={(v) => (
        <Box component="span" sx={{ px: 0.5, whiteSpace: 'nowrap' }} data-testid="system-picker-value">
          {selectionText(v)}
        </Box>
      )}
      renderOption={(props, option, { selected }) => {
        const item = items.find((i) => i.system === option)!;
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li
            key={key}
            {...rest}
            onClick={() => {
              onChange(pickSystems(value, option, 'only'));
              setOpen(false);
            }}
            data-testid="system-option"
            data-system={option}
            data-indent={item.indent}
            data-group-count={item.groupCount}
          >
            <Checkbox
              size="small"
              checked={selected}
              onClick={(e) => {
                e.stopPropagation();
                onChange(pickSystems(value, option, 'toggle'));
              }}
              sx={{ p: 0.5, mr: 1, ml: item.indent ? 2 : 0 }}
              data-testid="system-option-checkbox"
            />
            <Box sx={{ flexGrow: 1 }}>{option}</Box>
            <Box sx={{ color: 'text.secondary', ml: 2 }}>{item.groupCount}</Box>
          </li>
        );
      }}
      sx={{ minWidth: 260, bgcolor: '#E1F5FE' }}
      slotProps={{ listbox: { style: { maxHeight: 420 } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={value.length ? undefined : 'system'}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              startAdornment: [
                <Box key="p" component="span" sx={{ color: 'text.secondary', pl: 1 }}>
                  system:
                </Box>,
                params.slotProps.input.startAdornment,
              ],
            },
          }}
        />
      )}
      data-testid="system-picker"
    />
  );
}

/** Spans (n) / Logs (n) / Events (n), each only when that kind has systems (spec §2 Explore spans). */
export function SystemGroupPicker({
  systems,
  active,
  onChoose,
}: {
  systems: SystemStats[] | undefined;
  active: string[];
  onChoose: (kind: SystemKind) => void;
}) {
  const kinds = systemKinds(systems ?? []);
  if (kinds.length <= 1) return null;
  const current = active.length ? kindOf(active[0]) : kinds[0].kind;
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={current}
      onChange={(_e, v: SystemKind | null) => v && onChoose(v)}
      data-testid="system-group-picker"
    >
      {kinds.map((k) => (
        <ToggleButton
          key={k.kind}
          value={k.kind}
          sx={{ textTransform: 'none', px: 1.5 }}
          data-testid={`system-kind-${k.kind}`}
        >
          {k.kind[0].toUpperCase() + k.kind.slice(1)} ({k.groupCount})
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
