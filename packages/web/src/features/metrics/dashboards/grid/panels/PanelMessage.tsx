import ErrorOutlinedIcon from '@mui/icons-material/ErrorOutlined';
import { Box, CircularProgress, Typography } from '@mui/material';

/** What a panel shows instead of data: a spinner while loading, or its query error. */
export function PanelMessage({ height, loading, error }: { height: number; loading?: boolean; error?: string }) {
  return (
    <Box
      sx={{
        height,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        px: 2,
        textAlign: 'center',
      }}
      data-testid={error ? 'panel-error' : 'panel-loading'}
    >
      {loading && <CircularProgress size={24} />}
      {error && (
        <>
          <ErrorOutlinedIcon color="error" />
          <Typography variant="body2" color="error" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {error}
          </Typography>
        </>
      )}
    </Box>
  );
}
