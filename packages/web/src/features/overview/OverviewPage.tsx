import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { ComingSoon } from '../../components/ComingSoon';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { paths } from '../../lib/routes/paths';

/** Placeholder until the Overview (spec tracing §2 Overview) is delivered. */
export function OverviewPage() {
  const projectId = useProjectIdParam();
  return (
    <ComingSoon
      title="Overview"
      summary="The overview will summarise everything this project sends, per system and service."
      planned={[
        'A date range, system picker and quick filters by environment and service',
        'Quick metrics: span rate, error rate and latency percentiles',
        'Groups per system and per pinned attribute, and the slowest groups',
      ]}
    >
      {projectId !== undefined && (
        <Button component={RouterLink} to={paths.tracingHelp(projectId)} variant="outlined" size="small">
          How to send data to this project
        </Button>
      )}
    </ComingSoon>
  );
}
