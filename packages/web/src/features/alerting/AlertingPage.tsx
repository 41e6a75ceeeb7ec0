import { ComingSoon } from '../../components/ComingSoon';

/** Placeholder until alerting (spec platform §2.5–2.12) is delivered. */
export function AlertingPage() {
  return (
    <ComingSoon
      title="Alerts"
      summary="Alerting will watch metrics and errors and notify people when something goes wrong."
      planned={[
        'Alerts raised by monitors, with filters, bulk open/close and their history',
        'Metric monitors (thresholds on a query) and error monitors',
        'Notification channels: Slack, webhooks, Alertmanager, and personal e-mail settings',
      ]}
    />
  );
}
