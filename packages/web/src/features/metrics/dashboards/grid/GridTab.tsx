import type { Dashboard, GridColumn } from '@lantern/shared';
import { Typography } from '@mui/material';

/** Interface agreed for this session (M2b builds it): the Grid tab of a dashboard. */
export interface GridTabProps {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  range: { time_gte: string; time_lt: string };
  /** A where clause joined to every panel's query (the Table tab's row dialog); read-only view when set. */
  rowFilter?: string;
}

export function GridTab(_props: GridTabProps) {
  return <Typography data-testid="wip">Grid</Typography>;
}
