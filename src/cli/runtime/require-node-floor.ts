import { meetsNodeFloor, nodeFloorMessage } from './node-floor.js';

/*
 * Imported first by notify, notifyd and notifyctl, for its effect: imported modules run in import
 * order, so on a Node.js below the floor the program stops here with one line, before the SQLite
 * binding or anything else that needs a current Node.js is loaded.
 */
if (!meetsNodeFloor(process.versions.node)) {
  process.stderr.write(`${nodeFloorMessage(process.version)}\n`);
  process.exit(1);
}
