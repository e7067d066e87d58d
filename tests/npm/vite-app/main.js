// The Vite app's entry: the package by its name, bundled by Vite.
import * as citekit from 'cited-answer';
import 'cited-answer/citekit.css';
import { start } from './app.js';

start(citekit);
