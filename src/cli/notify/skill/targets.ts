import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { OPENAI_YAML } from './openai-yaml.js';
import { skillMd } from './skill-md.js';

const SKILL_NAME = 'notify';

export interface SkillFile {
  /** Relative to the skill folder, with `/` separators. */
  path: string;
  content: string;
}

export interface AgentTool {
  label: string;
  /** The skills folder of the tool, relative to the home folder (user) or the project (project). */
  skillsDir: string;
  /** The files, for a broker on `port` (SKILL.md's examples name it). */
  files: (port: number) => SkillFile[];
  /** What the user does next for the tool to pick the skill up. */
  nextStep: string;
}

/** Where a tool looks for skills, as a person would write it: the user's folder and the project's. */
export function lookedUpIn(tool: AgentTool): string {
  return `~/${tool.skillsDir} and <project>/${tool.skillsDir}`;
}

/**
 * Whether the tool reads skills from `folder` (a --path): a `<dir>/.claude/skills` (`.agents/skills`
 * for Codex) is the user's (dir = home) or a project's, and so is the target of a link from the
 * user's or this project's one (a dotfiles repository, say).
 */
export function readsSkillsFrom(tool: AgentTool, folder: string): boolean {
  const path = resolve(folder);
  if (path.endsWith(sep + tool.skillsDir)) return true;
  return [homedir(), process.cwd()].some((base) => sameFolder(path, join(base, tool.skillsDir)));
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** platform-facts.md "Agent skills": where each tool looks, and what it reads. */
export const AGENT_TOOLS: Record<string, AgentTool> = {
  claude: {
    label: 'Claude Code',
    skillsDir: join('.claude', 'skills'),
    files: (port) => [{ path: 'SKILL.md', content: skillMd(port) }],
    nextStep: 'Claude Code loads it in sessions started from now on.',
  },
  codex: {
    label: 'Codex',
    skillsDir: join('.agents', 'skills'),
    files: (port) => [
      { path: 'SKILL.md', content: skillMd(port) },
      { path: 'agents/openai.yaml', content: OPENAI_YAML },
    ],
    nextStep: 'Restart Codex to load it.',
  },
};

export type Scope = 'user' | 'project';

/** `--path` wins over the scope; either way the files go into a `notify` folder of their own. */
export function skillDirectory(tool: AgentTool, where: { scope: Scope; path?: string }): string {
  if (where.path !== undefined) return join(resolve(where.path), SKILL_NAME);
  const base = where.scope === 'user' ? homedir() : process.cwd();
  return join(base, tool.skillsDir, SKILL_NAME);
}
