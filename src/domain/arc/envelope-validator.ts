import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { InvalidRequestError } from '../errors.js';
import { isJsonObject } from '../fields.js';
import type { ArcEnvelope } from './envelope.js';
import { describeSchemaErrors } from './schema-errors.js';

/** ajv-formats is CommonJS; under NodeNext its default export arrives as the module object. */
const addFormats = addFormatsPlugin.default;

export type EnvelopeValidator = (body: unknown) => ArcEnvelope;

/**
 * Compiles the published ARC schema document once; the returned function accepts a request body and
 * returns it typed, or throws InvalidRequestError with one plain sentence. The schema is passed in
 * (read by the caller) so this module stays free of I/O.
 */
export function compileEnvelopeValidator(schema: object): EnvelopeValidator {
  // validateSchema off: the published document is checked against the 2020-12 meta-schema by its test
  // (test/arc/schema.test.ts); compiling the meta-schema too would double what the first event waits for.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, validateSchema: false });
  addFormats(ajv, ['date-time']);
  const validate = ajv.compile<ArcEnvelope>(schema);
  return (body) => {
    if (!isJsonObject(body)) throw new InvalidRequestError('request body must be a JSON object');
    if (validate(body)) return body;
    throw new InvalidRequestError(describeSchemaErrors(validate.errors ?? [], body));
  };
}
