/** API objects are shown as the spec says: indented JSON on stdout. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
