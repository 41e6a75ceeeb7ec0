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
    // A user who asked the system for less motion gets none: no ripples, fades, slides or pulsing
    // skeletons and progress bars (each also repaints the page every frame while it runs).
    MuiCssBaseline: {
      styleOverrides: {
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0s !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0s !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
    // Tab labels carry names such as 'OTLP/gRPC' and 'Traces & Logs' whose case matters.
    MuiTab: { styleOverrides: { root: { textTransform: 'none' } } },
  },
});
