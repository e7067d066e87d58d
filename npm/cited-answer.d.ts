// Types of `cited-answer/cited-answer.js`: the <cited-answer> element alone (registered
// on import), without the functions of the package's main entry.
export { CitedAnswerElement } from './index.js';
