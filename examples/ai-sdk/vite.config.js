// No @vitejs/plugin-react: esbuild's own JSX transform (the automatic runtime) is all
// the app needs. optimizeDeps.exclude keeps citekit (and its .wasm) out of the dev
// server's pre-bundling. `@recorded` is the folder of recorded UI message streams the
// app answers with (the repository's tests/recorded/ai-sdk, or RECORDED_DIR).
import { fileURLToPath } from 'node:url';

const recorded = process.env.RECORDED_DIR ?? fileURLToPath(new URL('../../tests/recorded/ai-sdk', import.meta.url));

export default {
  esbuild: { jsx: 'automatic' },
  optimizeDeps: { exclude: ['cited-answer'] },
  resolve: { alias: { '@recorded': recorded } },
  server: { fs: { allow: ['.', recorded] } },
};
