import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { aliases } from './scripts/aliases.mjs';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8081}`;

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  define: {
    // The signing secret comes from the build environment (SIGN_SECRET), never from the source.
    'import.meta.env.VITE_SIGN_SECRET': JSON.stringify(process.env.SIGN_SECRET ?? ''),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is past the default 500 kB warning; the login page needs it anyway.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The big-screen viewer has a page of its own: a wall display loads none of the back office.
      // review.html draws definitions with sample data for `wastegen review`.
      input: { main: 'index.html', lsPreview: 'ls-preview.html', review: 'review.html' },
      output: {
        // Recognisable names: the lazily loaded RSA fallback (see src/session/encrypt-password.ts), and
        // the HTML sanitiser, whose parsing of hostile markup the browser reports as refused handlers.
        codeSplitting: {
          groups: [
            { name: 'node-forge', test: /[\\/]node_modules[\\/]node-forge[\\/]/ },
            { name: 'purify', test: /[\\/]node_modules[\\/]dompurify[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/websocket': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
});
