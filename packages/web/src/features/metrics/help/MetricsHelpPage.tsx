import { NotFoundPage } from '../../../app/NotFoundPage';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { MetricsHelpCard } from './MetricsHelpCard';
import { usePageTitle } from '../../../components/shell/usePageTitle';

/** `/metrics/:projectId/help` (MetricsHelp): the help card whether or not the project has metrics. */
export function MetricsHelpPage() {
  const projectId = useProjectIdParam();
  usePageTitle('Send metrics');
  if (projectId === undefined) return <NotFoundPage />;
  return <MetricsHelpCard projectId={projectId} />;
}
