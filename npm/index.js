// citekit: the ESM entry of the npm package. The functions come from core.js; importing
// this module also registers <cited-answer> (cited-answer.js).
export { init, isReady, loadFormats, parse, renderToString, mount, version, View } from './core.js';
export { CitedAnswerElement } from './cited-answer.js';
