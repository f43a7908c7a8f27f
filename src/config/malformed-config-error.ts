/** config.json cannot be read as Notify's settings: the broker refuses to start rather than guess. */
export class MalformedConfigError extends Error {
  override name = 'MalformedConfigError';
}
