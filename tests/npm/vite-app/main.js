// The Vite app's entry: the package by its name, bundled by Vite.
import * as citekit from 'citekit';
import 'citekit/citekit.css';
import { start } from './app.js';

start(citekit);
