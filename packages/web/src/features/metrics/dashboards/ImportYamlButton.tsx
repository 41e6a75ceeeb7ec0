import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button } from '@mui/material';
import { useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { paths } from '../../../lib/routes/paths';
import { useImportDashboardYaml } from './dashboardsApi';

/** 'Import YAML': a dashboard file (the Download YAML format) becomes a new dashboard, which opens. */
export function ImportYamlButton({ projectId }: { projectId: number }) {
  const input = useRef<HTMLInputElement>(null);
  const importYaml = useImportDashboardYaml(projectId);
  const snackbar = useSnackbar();
  const navigate = useNavigate();
  return (
    <>
      <Button
        size="small"
        startIcon={<UploadFileIcon />}
        disabled={importYaml.isPending}
        onClick={() => input.current?.click()}
        data-testid="import-yaml"
      >
        Import YAML
      </Button>
      <input
        ref={input}
        type="file"
        accept=".yaml,.yml,text/yaml,application/x-yaml"
        hidden
        data-testid="import-yaml-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          // Both outcomes are handled: a file that cannot be read is reported like one that is not a dashboard.
          void file.text().then(
            (text) =>
              importYaml.mutate(text, {
                onSuccess: (r) => {
                  snackbar.notifySuccess(`Dashboard "${r.dashboard.name}" imported`);
                  void navigate(paths.dashboard(projectId, r.dashboard.id));
                },
                onError: (err) => snackbar.notifyError(`${file.name} is not a dashboard: ${err.message}`),
              }),
            (err: Error) => snackbar.notifyError(`${file.name} could not be read: ${err.message}`),
          );
        }}
      />
    </>
  );
}
