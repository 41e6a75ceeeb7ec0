import { useEffect } from 'react';
import { NotFoundPage } from '../../app/NotFoundPage';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { TracingHelpCard } from './TracingHelpCard';

/** Spec tracing §2 'Getting started' (TracingHelp). */
export function TracingHelpPage() {
  const projectId = useProjectIdParam();
  useEffect(() => {
    document.title = 'Getting started | Lantern';
  }, []);
  if (projectId === undefined) return <NotFoundPage />;
  return <TracingHelpCard projectId={projectId} />;
}
