// No @vitejs/plugin-react: esbuild's own JSX transform (the automatic runtime) is all
// the app needs. optimizeDeps.exclude keeps the package (and its .wasm) out of the dev
// server's pre-bundling; `vite build` does not need it but a dev server would.
export default {
  esbuild: { jsx: 'automatic' },
  optimizeDeps: { exclude: ['cited-answer'] },
  build: { minify: false },
};
