import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import { yaml as yamlLanguage } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import CodeMirror from '@uiw/react-codemirror';
import { dashboardsRoutes } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { useSnackbar } from '../../../../components/feedback/SnackbarProvider';
import { apiUrl } from '../../../../lib/api/api';
import { useDashboardYaml, useSaveDashboardYaml } from '../dashboardsApi';
import { serverProblems, syntaxProblems, type YamlProblem } from './yamlProblems';

/** The spec's success message, spelling included. */
export const YAML_SAVED = 'The dashboard has beed successfully updated from the YAML';

const toDiagnostic = (p: YamlProblem, length: number): Diagnostic => ({
  from: Math.min(p.from, length),
  to: Math.min(p.to, length),
  severity: 'error',
  message: p.message,
});

/**
 * Spec Dashboard page, YAML tab: the dashboard as YAML in an editor, 'Save YAML' top and bottom,
 * 'Download YAML'. Syntax errors are marked as one types, and Save lists them at their lines
 * without asking the server; the server's refusal (a bad key, a panel query that would not run) is
 * marked at the keys it names and listed above the editor. An error list replaces the last
 * success message. Download is a link relative to the page (the answer's absolute `yamlUrl` is
 * built from `site.url`, another host than the one the app may be opened from: a raw 401 there).
 */
export function DashYamlTab({ projectId, dashId }: { projectId: number; dashId: string }) {
  const source = useDashboardYaml(projectId, dashId);
  const save = useSaveDashboardYaml(projectId, dashId);
  const snackbar = useSnackbar();
  const [draft, setDraft] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ text: string; problems: YamlProblem[] } | null>(null);
  const text = draft ?? source.data ?? '';

  const extensions = useMemo(
    () => [
      yamlLanguage(),
      lintGutter(),
      linter((view) => {
        const doc = view.state.doc.toString();
        const own = syntaxProblems(doc);
        const server = refused && refused.text === doc ? refused.problems : [];
        return [...own, ...server].map((p) => toDiagnostic(p, doc.length));
      }),
    ],
    [refused],
  );

  if (source.error) return <Alert severity="error">{source.error.message}</Alert>;
  if (source.isPending) return <Skeleton variant="rectangular" height={400} />;

  const onSave = () => {
    // A success message from an earlier save must not stand beside this save's errors.
    snackbar.clear();
    const syntax = syntaxProblems(text);
    if (syntax.length) {
      setRefused({ text, problems: syntax });
      return;
    }
    setRefused(null);
    save.mutate(text, {
      onSuccess: () => {
        setDraft(null);
        snackbar.notifySuccess(YAML_SAVED);
      },
      onError: (err) => setRefused({ text, problems: serverProblems(text, err.message) }),
    });
  };
  const saveButton = (where: string) => (
    <Button variant="contained" onClick={onSave} disabled={save.isPending} data-testid={`yaml-save-${where}`}>
      Save YAML
    </Button>
  );

  return (
    <Stack spacing={1.5} data-testid="yaml-tab">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {saveButton('top')}
        <Button
          startIcon={<DownloadIcon />}
          href={apiUrl(dashboardsRoutes.dashboardYaml, { params: { projectId, dashId } })}
          download
          data-testid="yaml-download"
        >
          Download YAML
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Typography variant="body2" color="text.secondary">
          Edit the dashboard as YAML (the format of Download and of the built-in templates).
        </Typography>
      </Stack>
      {refused && (
        <Alert severity="error" data-testid="yaml-errors">
          {refused.problems.map((p, i) => (
            <div key={i}>
              Line {p.line}: {p.message}
            </div>
          ))}
        </Alert>
      )}
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }} data-testid="yaml-editor">
        <CodeMirror
          value={text}
          height="60vh"
          extensions={extensions}
          onChange={(v) => setDraft(v)}
          basicSetup={{ lineNumbers: true, foldGutter: true }}
        />
      </Box>
      <Box>{saveButton('bottom')}</Box>
    </Stack>
  );
}
