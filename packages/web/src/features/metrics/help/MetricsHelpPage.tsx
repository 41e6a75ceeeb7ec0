import { NotFoundPage } from '../../../app/NotFoundPage';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { MetricsHelpCard } from './MetricsHelpCard';

/** `/metrics/:projectId/help` (MetricsHelp): the help card whether or not the project has metrics. */
export function MetricsHelpPage() {
  const projectId = useProjectIdParam();
  if (projectId === undefined) return <NotFoundPage />;
  return <MetricsHelpCard projectId={projectId} />;
}
