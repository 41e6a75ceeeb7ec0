import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server (packages/server) serves dist/ in production; in development Vite serves the app and
// forwards the API and the OTLP/HTTP ingest paths to a locally running server.
const serverUrl = process.env.LANTERN_DEV_SERVER ?? 'http://127.0.0.1:14318';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // MUI + React are one ~600 kB chunk; splitting it buys nothing for an app served from localhost.
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': { target: serverUrl, changeOrigin: true },
      '/v1': { target: serverUrl, changeOrigin: true },
    },
  },
});
