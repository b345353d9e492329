import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { firstLoad } from './vite-first-load';
import { pureContract } from './vite-pure-contract';
import { themeVariables } from './vite-theme-variables';

// In dev the SPA and the API run on different ports; proxying /api keeps the client's
// baseURL '/api' identical in dev and in production, where the server serves web/dist itself.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [pureContract(), themeVariables(), react(), firstLoad()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
  // `vite build --ssr`: the bundle the server renders the visitors' first screens with (decision 117), beside
  // the app but never served (server/src/web-app.ts).
  publicDir: isSsrBuild ? false : 'public',
  build: isSsrBuild
    ? { outDir: 'dist/ssr', emptyOutDir: true }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // Decision 119: the small chunks shared by several screens are copied into each screen's chunk instead of
        // being files of their own (a session's screen came in 32 to 46 files, each a request on a slow line).
        // Rolldown's runtime keeps one instance of each copied module; no screen gets code it could not reach
        // before. Vite keeps the chunks that hold styles as files.
        rolldownOptions: {
          preserveEntrySignatures: false,
          output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: Infinity } } },
        },
      },
}));
