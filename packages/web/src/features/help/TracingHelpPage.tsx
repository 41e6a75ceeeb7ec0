import { NotFoundPage } from '../../app/NotFoundPage';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { TracingHelpCard } from './TracingHelpCard';
import { usePageTitle } from '../../components/shell/usePageTitle';

/** Spec tracing §2 'Getting started' (TracingHelp). */
export function TracingHelpPage() {
  const projectId = useProjectIdParam();
  usePageTitle('Getting started');
  if (projectId === undefined) return <NotFoundPage />;
  return <TracingHelpCard projectId={projectId} />;
}
