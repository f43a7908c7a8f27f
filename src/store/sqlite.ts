import Database from 'better-sqlite3';

export default Database;

export type Db = Database.Database;
