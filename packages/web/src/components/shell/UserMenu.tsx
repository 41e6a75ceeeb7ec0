import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import ApiIcon from '@mui/icons-material/Api';
import LogoutIcon from '@mui/icons-material/Logout';
import { Avatar, Box, Button, Divider, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import { systemRoutes, type User } from '@lantern/shared';
import { useState } from 'react';

function initials(user: User): string {
  const source = user.name || user.email || '?';
  return source
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0].toUpperCase())
    .join('');
}

/** Spec §1: name (or 'Anonymous'), e-mail when present, an avatar and Sign out; and the API reference. */
export function UserMenu({ user, onSignOut, signingOut }: { user: User; onSignOut: () => void; signingOut: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        endIcon={<ArrowDropDownIcon />}
        sx={{ minWidth: 0 }}
        data-testid="user-menu"
      >
        <Avatar
          src={user.avatar || undefined}
          alt={user.name || 'Anonymous'}
          sx={{ width: 26, height: 26, fontSize: 12 }}
          data-testid="user-avatar"
        >
          {initials(user)}
        </Avatar>
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ px: 2, py: 1, minWidth: 200 }}>
          <Typography sx={{ fontWeight: 700 }} data-testid="user-name">
            {user.name || 'Anonymous'}
          </Typography>
          {user.email && (
            <Typography variant="body2" color="text.secondary" data-testid="user-email">
              {user.email}
            </Typography>
          )}
        </Box>
        <Divider />
        <MenuItem
          component="a"
          href={systemRoutes.apiDocs.path}
          target="_blank"
          rel="noopener"
          onClick={() => setAnchor(null)}
          data-testid="api-docs"
        >
          <ListItemIcon>
            <ApiIcon fontSize="small" />
          </ListItemIcon>
          API reference
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onSignOut();
          }}
          disabled={signingOut}
          data-testid="sign-out"
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
}
