import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@switchyard/shared': path.resolve(import.meta.dirname, '../packages/shared/src/index.ts') },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/v1': 'http://localhost:3000', '/pg': 'http://localhost:3000', '/portal': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
  },
});
