import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In dev the SPA and the API run on different ports; proxying /api keeps the client's
// baseURL '/api' identical in dev and in production, where the server serves web/dist itself.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
