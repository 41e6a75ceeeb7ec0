import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { AlertCard } from './AlertCard';

/** Spec platform §2.1 AlertShow: the alert card as a page. */
export function AlertShowPage() {
  const projectId = useProjectIdParam();
  const raw = useParams().alertId ?? '';
  const alertId = /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  useEffect(() => {
    document.title = 'Alert | Lantern';
  }, []);
  if (projectId === undefined || alertId === undefined) return <NotFoundPage />;
  return <AlertCard projectId={projectId} alertId={alertId} />;
}
