import type { MetricAlias } from '@lantern/shared';
import { Typography } from '@mui/material';

/** Interface agreed for this session (M1 builds it): pick up to `max` metrics, each with an alias. */
export interface MetricsPickerProps {
  projectId: number;
  value: MetricAlias[];
  onChange: (value: MetricAlias[]) => void;
  /** Default 6 (spec platform §5). */
  max?: number;
  /** Limits the choice to metrics sharing attributes with these (Explore metric, step 1). */
  disabled?: boolean;
}

export function MetricsPicker(_props: MetricsPickerProps) {
  return <Typography data-testid="wip">Metrics picker</Typography>;
}
