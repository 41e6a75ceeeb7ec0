import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link } from '@mui/material';
import { CodeBlock } from '../../components/CodeBlock';
import { externalLinks } from '../../lib/routes/paths';

/** The `users` entry to add to the configuration file (docs/configuration.md, `users[]`). */
export const NEW_USER_SNIPPET = `users:
  - name: Jane Doe
    email: jane@example.com
    password: choose-a-long-password
`;

/**
 * Lantern has no sign-up form: password users live in the configuration file. 'Create new user'
 * on Login explains that and gives the entry to add.
 */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="create-user-dialog">
      <DialogTitle>Create a new user</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Users who sign in with a password are listed in Lantern's configuration file (<code>lantern.yml</code>, or the
          file given with <code>--config</code> or <code>LANTERN_CONFIG</code>). Add an entry under <code>users</code>,
          then restart Lantern. The file's list is the whole list: the built-in <code>admin@lantern.local</code> exists
          only while no file lists users, so list everyone who signs in with a password, yourself included. The password
          is hashed when the file is loaded.
        </DialogContentText>
        <CodeBlock code={NEW_USER_SNIPPET} testId="create-user-snippet" />
        <DialogContentText sx={{ mt: 2 }}>
          With single sign-on set up (<code>auth.oidc</code>), people can also sign in with their company account; a
          Lantern user is created at their first sign-in, unless the provider has <code>allow_sign_up: false</code>,
          which admits only users that already exist.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Link
          href={externalLinks.configuration}
          target="_blank"
          rel="noopener"
          sx={{ mr: 'auto', ml: 2 }}
          data-testid="create-user-docs"
        >
          Configuration reference
        </Link>
        <Button onClick={onClose} data-testid="create-user-close">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
