import { meetsNodeFloor } from '../../runtime/node-floor.js';

/*
 * Imported first by the hook, for its effect: on a Node.js below the floor the hook exits 0 silently
 * before anything else loads, because an agent must never break on its hook.
 */
if (!meetsNodeFloor(process.versions.node)) process.exit(0);
