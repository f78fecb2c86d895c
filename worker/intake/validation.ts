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
    // Inside a nested object (e.g. `load`), the unknown field is named with its path: "load.pickup".
    const at = fieldAt(schema, extra.instancePath).names;
    const name = names[0] === undefined ? (at.length > 0 ? at.join('.') : (part ?? 'body')) : [...at, names[0]].join('.');
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
  const at = fieldAt(schema, first.instancePath);
  const name = at.names.length > 0 ? at.names.join('.') : unescape(top);
  const hint = at.hint;
  return { param: name, message: hint ? `${where} "${name}" must be ${hint}` : `${where} "${name}" ${first.message}` };
}

function unescape(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The field an error's instancePath points at, as far as the schema names it: ["load",
 * "pickup_at"] for "/load/pickup_at" (through a nullable object's branches too). It stops at
 * what has no named property (an array item, an unknown field): "/screenings/3" is "screenings".
 * `hint` is the description of the deepest field named.
 */
function fieldAt(schema: TSchema | undefined, instancePath: string): { names: string[]; hint: string | undefined } {
  const names: string[] = [];
  let hint: string | undefined;
  let node = schema as unknown as JsonSchema | undefined;
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = unescape(raw);
    const next = propertyOf(node, seg);
    if (!next) break;
    names.push(seg);
    hint = (next as { description?: string }).description;
    node = next;
  }
  return { names, hint };
}

function propertyOf(node: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (!node) return undefined;
  const own = node.properties?.[name];
  if (own) return own;
  for (const branch of node.anyOf ?? []) {
    const p = branch.properties?.[name];
    if (p) return p;
  }
  return undefined;
}
