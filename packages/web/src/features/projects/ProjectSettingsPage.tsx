import {
  Alert,
  Autocomplete,
  Box,
  Card,
  CardContent,
  Checkbox,
  Chip,
  FormControlLabel,
  Link,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageToolbar } from '../../components/PageToolbar';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { externalLinks, paths } from '../../lib/routes/paths';
import { ProjectDsnTable } from './ProjectDsnTable';
import { useProject } from './projectsApi';
import { usePageTitle } from '../../components/shell/usePageTitle';

/** Spec platform §2.4: everything is read-only here; projects are changed in lantern.yml. */
export function ProjectSettingsPage() {
  const projectId = useProjectIdParam();
  const { data, error, isPending } = useProject(projectId);

  usePageTitle('Project settings');

  // An id that is not digits is no project and nothing would load: not found, as on every project page.
  if (projectId === undefined) return <NotFoundPage />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (isPending) return <Skeleton variant="rectangular" height={320} />;
  const { project } = data;

  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }} data-testid="project-settings">
      <Box>
        <PageToolbar title="Project settings" />
        <Card variant="outlined" sx={{ mt: 1 }}>
          <CardContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              Projects are configured in <code>lantern.yml</code> and cannot be edited here. See the{' '}
              <Link href={externalLinks.configuration} target="_blank" rel="noopener">
                configuration guide
              </Link>
              .
            </Typography>
            <Stack spacing={2}>
              <TextField
                label="Name"
                value={project.name}
                disabled
                slotProps={{ htmlInput: { 'data-testid': 'project-settings-name' } }}
              />
              <Autocomplete
                multiple
                disabled
                options={project.pinnedAttrs}
                value={project.pinnedAttrs}
                renderValue={(values, getItemProps) =>
                  values.map((attr, index) => {
                    const { key, ...itemProps } = getItemProps({ index });
                    // Read-only: no remove cross on the chips.
                    return <Chip {...itemProps} key={key} label={attr} size="small" onDelete={undefined} />;
                  })
                }
                renderInput={(params) => (
                  <TextField
                    {...params}
                    // The label stays above the field, so that an empty list reads 'None', not a blank box.
                    slotProps={{ ...params.slotProps, inputLabel: { ...params.slotProps.inputLabel, shrink: true } }}
                    label="Pinned attributes"
                    placeholder={project.pinnedAttrs.length ? '' : 'None'}
                  />
                )}
                data-testid="project-pinned-attrs"
              />
              <FormControlLabel
                control={<Checkbox checked={project.groupByEnv} disabled />}
                label="Group spans by deployment.environment attribute"
                data-testid="project-group-by-env"
              />
              <FormControlLabel
                control={<Checkbox checked={project.groupFuncsByService} disabled />}
                label="Group funcs spans by service.name attribute"
                data-testid="project-group-funcs-by-service"
              />
            </Stack>
          </CardContent>
        </Card>
      </Box>
      <Box>
        <PageToolbar title="Project DSN" />
        <Card variant="outlined" sx={{ mt: 1 }}>
          <CardContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Applications send telemetry with one of these DSNs. The{' '}
              <Link component={RouterLink} to={paths.tracingHelp(project.id)}>
                getting started guide
              </Link>{' '}
              shows how to configure an OpenTelemetry SDK or Collector with them.
            </Typography>
            <ProjectDsnTable project={data} />
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}
