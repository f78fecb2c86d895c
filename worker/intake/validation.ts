import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * Request validation with TypeBox. Bodies are checked as sent (no coercion: "true" is not a
 * boolean, unknown fields are an error, never silently dropped). Query strings, path params
 * and headers arrive as text: a value is converted only when its text is exactly a number or
 * boolean ("1.5", "0x10", "" stay text and fail as integers).
 */

type JsonSchema = { type?: unknown; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,15})?$/;

function types(s: JsonSchema): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  return (s.anyOf ?? []).flatMap(types);
}

function convertText(schema: JsonSchema, value: string): unknown {
  const t = types(schema);
  if (t.includes('string')) return value;
  if (t.includes('integer') && INTEGER.test(value)) return Number(value);
  if (t.includes('number') && NUMBER.test(value)) return Number(value);
  if (t.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function convertTextFields(schema: JsonSchema, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !schema.properties) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) {
    const prop = schema.properties[k];
    if (prop && typeof v === 'string') out[k] = convertText(prop, v);
  }
  return out;
}

export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const s = schema as unknown as JsonSchema;
  return (value: unknown) => {
    const v = httpPart === 'body' ? value : convertTextFields(s, value);
    if (check.Check(v)) return { value: v };
    return { error: check.Errors(v) as unknown as FastifySchemaValidationError[] };
  };
};

interface TypeBoxError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** The parameter at fault and a message naming it, from the first validation error. */
export function describeValidation(
  errors: readonly unknown[],
  part: string | undefined,
  schema: TSchema | undefined,
): { param: string; message: string } {
  const list = errors as TypeBoxError[];
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : part === 'headers' ? 'header' : 'field';
  // An unknown field is the most useful thing to report first.
  const extra = list.find((e) => e.keyword === 'additionalProperties');
  if (extra) {
    const names = (extra.params.additionalProperties as string[] | undefined) ?? [];
    const name = names[0] ?? (part ?? 'body');
    return { param: name, message: `unknown ${where} "${name}"` };
  }
  const first = list.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'boolean') ?? list[0];
  if (!first) return { param: part === 'querystring' || part === undefined ? 'body' : part, message: 'invalid request' };
  if (first.keyword === 'required') {
    const names = (first.params.requiredProperties as string[] | undefined) ?? [];
    const name = names[0] ?? 'body';
    return { param: name, message: `missing required ${where} "${name}"` };
  }
  const top = first.instancePath.split('/')[1];
  if (top === undefined || top === '') {
    // The whole body (or query) is wrong, e.g. a JSON array instead of an object.
    return part === 'body' || part === undefined
      ? { param: 'body', message: 'the request body must be a JSON object' }
      : { param: part, message: `invalid ${part}` };
  }
  const name = top.replaceAll('~1', '/').replaceAll('~0', '~');
  const props = (schema as unknown as JsonSchema | undefined)?.properties;
  const hint = (props?.[name] as { description?: string } | undefined)?.description;
  return { param: name, message: hint ? `${where} "${name}" must be ${hint}` : `${where} "${name}" ${first.message}` };
}
