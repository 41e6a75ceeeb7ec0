import { useParams } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { AlertCard } from './AlertCard';
import { usePageTitle } from '../../../components/shell/usePageTitle';

/** Spec platform §2.1 AlertShow: the alert card as a page. */
export function AlertShowPage() {
  const projectId = useProjectIdParam();
  const raw = useParams().alertId ?? '';
  const alertId = /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  usePageTitle('Alert');
  if (projectId === undefined || alertId === undefined) return <NotFoundPage />;
  return <AlertCard projectId={projectId} alertId={alertId} />;
}
