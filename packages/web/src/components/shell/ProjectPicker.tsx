import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import SettingsIcon from '@mui/icons-material/Settings';
import { Box, Button, IconButton, Popover, Tooltip } from '@mui/material';
import type { ProjectSummary } from '@lantern/shared';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../../lib/routes/paths';
import { ProjectList } from './ProjectList';
import { projectSwitchTarget } from './projectSwitchTarget';
import { useRouteParams } from './useRouteProjectId';

/** Spec §2.2: the project name opens a searchable selector; the cog links to Project settings. */
export function ProjectPicker({ projects, projectId }: { projects: ProjectSummary[]; projectId: number | undefined }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const params = useRouteParams();
  const current = projects.find((p) => p.id === projectId);

  const choose = (project: ProjectSummary) => {
    setAnchor(null);
    if (project.id !== projectId) void navigate(projectSwitchTarget(location.pathname, params, project.id));
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center' }}>
      <Button
        color="inherit"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none', fontSize: '1rem', maxWidth: 240 }}
        data-testid="project-picker"
      >
        <Box
          component="span"
          sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          data-testid="project-name"
        >
          {current?.name ?? 'Select a project'}
        </Box>
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <ProjectList projects={projects} currentId={projectId} onChoose={choose} />
      </Popover>
      {projectId !== undefined && (
        <Tooltip title="Project settings">
          <IconButton
            component={RouterLink}
            to={paths.projectSettings(projectId)}
            size="small"
            color="inherit"
            aria-label="Project settings"
            data-testid="project-settings-link"
          >
            <SettingsIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}
