import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  AppBar,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  InputAdornment,
  Stack,
  TextField,
  Toolbar,
  Typography,
} from '@mui/material';
import { LoginRequest, safeReturnPath, ssoErrorMessage } from '@lantern/shared';
import { useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { capitalize } from '../../lib/text/capitalize';
import { CreateUserDialog } from './CreateUserDialog';
import { SsoButtons } from './SsoButtons';
import { useCurrentUser, useLoginHint, useLoginMutation } from './authApi';
import { usePageTitle } from '../../components/shell/usePageTitle';

function fieldErrors(values: { email: string; password: string }): Partial<Record<'email' | 'password', string>> {
  const parsed = LoginRequest.safeParse(values);
  if (parsed.success) return {};
  const errors: Partial<Record<'email' | 'password', string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * Spec platform §2.3. `?next=` is the page to return to after signing in (password or single
 * sign-on); `?sso_error=` a single sign-on failure the server sent the browser back with.
 */
export function LoginPage() {
  const [search] = useSearchParams();
  const next = safeReturnPath(search.get('next') ?? '/');
  const ssoError = search.get('sso_error');
  const currentUser = useCurrentUser();
  const hint = useLoginHint();
  const login = useLoginMutation(next);
  const [values, setValues] = useState({ email: '', password: '' });
  const [touched, setTouched] = useState({ email: false, password: false });
  const [creatingUser, setCreatingUser] = useState(false);

  usePageTitle('Log in');

  if (currentUser.data) return <Navigate to={next} replace />;

  const errors = fieldErrors(values);
  const valid = Object.keys(errors).length === 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid && !login.isPending) login.mutate({ email: values.email.trim(), password: values.password });
  };
  const field = (name: 'email' | 'password') => ({
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    error: touched[name] && !!errors[name],
    helperText: touched[name] ? errors[name] : undefined,
  });

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8, bgcolor: '#FAFAFA', flexGrow: 1 }}>
      <Card sx={{ width: 500, maxWidth: '100%', alignSelf: 'flex-start' }} data-testid="login-card">
        <AppBar position="static" elevation={0}>
          <Toolbar>
            <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
              Log in
            </Typography>
            <Button
              variant="outlined"
              color="inherit"
              size="small"
              onClick={() => setCreatingUser(true)}
              data-testid="create-user-link"
            >
              Create new user
            </Button>
          </Toolbar>
        </AppBar>
        <CardContent sx={{ p: 3 }}>
          {ssoError && !login.error && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="sso-error">
              {ssoErrorMessage(ssoError)}
            </Alert>
          )}
          <SsoButtons next={next} />
          <Stack
            component="form"
            spacing={2}
            onSubmit={submit}
            // Enter does not submit while Sign in is disabled (an incomplete form): every empty or
            // invalid field then says why (spec §5), not only those left once.
            onKeyDown={(e: KeyboardEvent) => {
              if (e.key === 'Enter' && !valid) setTouched({ email: true, password: true });
            }}
            noValidate
          >
            {login.error && (
              <Alert severity="error" data-testid="login-error">
                {capitalize(login.error.message)}
              </Alert>
            )}
            {hint.data?.hint && (
              <Typography variant="body2" color="text.secondary" data-testid="login-hint">
                The default login is <strong>{hint.data.hint.email}</strong> with password{' '}
                <strong>{hint.data.hint.password}</strong>.
              </Typography>
            )}
            <TextField
              {...field('email')}
              label="Email"
              type="email"
              autoComplete="username"
              variant="filled"
              required
              autoFocus
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <AccountCircleIcon />
                    </InputAdornment>
                  ),
                },
                htmlInput: { 'data-testid': 'login-email' },
              }}
            />
            <TextField
              {...field('password')}
              label="Password"
              type="password"
              autoComplete="current-password"
              variant="filled"
              required
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <LockIcon />
                    </InputAdornment>
                  ),
                },
                htmlInput: { 'data-testid': 'login-password' },
              }}
            />
            <Divider />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={!valid || login.isPending}
              data-testid="login-submit"
            >
              Sign in
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <CreateUserDialog open={creatingUser} onClose={() => setCreatingUser(false)} />
    </Box>
  );
}
