// `import 'cited-answer/citekit.css'` (a bundler puts the stylesheet on the page): a module
// with no exports, so that TypeScript's checked side-effect imports find it.
export {};
