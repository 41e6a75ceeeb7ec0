import { createTheme } from '@mui/material/styles';

/** Colours of the reference product (frontend reference §7.5); lg breakpoint at 1536 like it. */
export const theme = createTheme({
  palette: {
    primary: { main: '#1976D2' },
    error: { main: '#FF5252' },
    success: { main: '#4CAF50' },
    background: { default: '#FFFFFF' },
  },
  breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1536, xl: 1920 } },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    // Tab labels carry names such as 'OTLP/gRPC' and 'Traces & Logs' whose case matters.
    MuiTab: { styleOverrides: { root: { textTransform: 'none' } } },
  },
});
