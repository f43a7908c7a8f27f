import { resolvePaths } from '../../config/paths.js';
import { DataFolderInUseError, lockDataFolder } from '../../store/data-lock.js';
import { recoverDatabase } from '../../store/recover.js';
import type { NotifyctlCommand } from './command.js';

const USAGE = `Usage: notifyctl db recover

Copies every notification that can still be read from a damaged database into a new one, keeps the
damaged file beside it as notify.db.damaged-<time>, and puts the new one in its place. Stop the broker
first.`;

/** `notifyctl db recover`: what to do when notifyd refuses to start on a damaged database. */
export const dbCommand: NotifyctlCommand = {
  name: 'db',
  summary: 'recover: save what can be read from a damaged database',
  async run(args) {
    if (args[0] === '--help' || args[0] === '-h') {
      console.log(USAGE);
      return 0;
    }
    if (args.length !== 1 || args[0] !== 'recover') {
      console.error(`notifyctl db: expected 'recover'. Run 'notifyctl db --help'.`);
      return 1;
    }
    const paths = resolvePaths();
    let lock;
    try {
      lock = lockDataFolder(paths.dataDir, 'notifyctl db recover');
    } catch (error) {
      if (!(error instanceof DataFolderInUseError)) throw error;
      console.error(`notifyctl db recover: ${error.message}`);
      return 1;
    }
    try {
      const report = recoverDatabase(paths.databaseFile);
      console.log(
        `recovered ${report.recovered} notifications into ${paths.databaseFile}; the damaged file is kept as ${report.damagedCopy}`,
      );
      return 0;
    } catch (error) {
      console.error(`notifyctl db recover: ${(error as Error).message}`);
      return 1;
    } finally {
      lock.release();
    }
  },
};
