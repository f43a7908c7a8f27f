/** Codex's optional agent descriptor (agents/openai.yaml beside SKILL.md): how the skill is shown. */
export const OPENAI_YAML = `interface:
  display_name: "Notify"
  short_description: "Ask the user for attention through local Notify"
  default_prompt: "Use $notify to tell me when you need my input, are blocked, or are done."
`;
