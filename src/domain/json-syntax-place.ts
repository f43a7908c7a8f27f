/**
 * Where JSON.parse found a file broken, as line and column. V8's own message quotes the text around
 * the error, and that text can be the token, so it is never shown; the broker and the client both say
 * it this way.
 */
export function jsonSyntaxPlace(error: Error, text: string): string {
  const position = /position (\d+)/.exec(error.message);
  if (!position) return 'an unexpected character; check quotes, commas and braces';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `syntax error at line ${line}, column ${column}`;
}
