/**
 * Loaded with `--import` into a broker under test: records the URL of every ES module the process
 * imports (one per line, in NOTIFY_TEST_MODULES_FILE), so a test can see what a broker loaded.
 * CommonJS files that packages require() among themselves are not seen; their entry points are.
 */
import { register } from 'node:module';

register('./module-recorder-hooks.js', import.meta.url);
