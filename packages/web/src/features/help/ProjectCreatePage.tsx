import { Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { PageToolbar } from '../../components/PageToolbar';
import { externalLinks } from '../../lib/routes/paths';
import { usePageTitle } from '../../components/shell/usePageTitle';
import { useCurrentUser } from '../auth/authApi';

/**
 * Where Home goes when the user has no project (spec §2.1 ProjectCreate); also reachable by its
 * address, where it must not say there are none when the user has some.
 */
export function ProjectCreatePage() {
  usePageTitle('Create a project');
  const count = useCurrentUser().data?.projects.length;
  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }} data-testid="project-create">
      <PageToolbar title="Create a project" />
      <Card variant="outlined">
        <CardContent>
          <Typography>
            {count === 0 ? 'You have no projects yet. ' : ''}Projects are defined under <code>projects:</code> in{' '}
            <code>lantern.yml</code>; add one and restart Lantern. The{' '}
            <Link href={externalLinks.configuration} target="_blank" rel="noopener">
              configuration guide
            </Link>{' '}
            explains every key.
          </Typography>
        </CardContent>
      </Card>
    </Stack>
  );
}
