import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = 'http://localhost:8103';
const apiPaths = [
  '/fhir',
  '/auth',
  '/oauth2',
  '/.well-known',
  '/healthcheck',
  '/keyvalue',
  '/email',
  '/admin',
  '/fhircast',
];

export default defineConfig({
  plugins: [react()],
  // The budget is in gzip bytes (ARCHITECTURE.md: sign-in route ≤ 350 KB gzip); Rollup's warning counts raw bytes.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(apiPaths.map((path) => [path, { target: api, changeOrigin: false }])),
      '/ws': { target: api, ws: true },
    },
  },
});
