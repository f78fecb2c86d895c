import { randomBytes } from 'node:crypto';

/**
 * The JSON of an answer. A screening's score (~1–3 KB, most of the answer) is one frozen object
 * shared by every hit of its fetch (worker/store/score-refs.ts), so its JSON is made once and
 * kept with it; the rest of the screening is stringified as usual and the score's text put in
 * its place. The result is exactly JSON.stringify(data).
 */

const scoreJson = new WeakMap<object, string>();
/** Stands for the score while the rest is stringified: random per process, so no value can equal it. */
const PLACEHOLDER = `score-${randomBytes(16).toString('hex')}`;
const QUOTED = JSON.stringify(PLACEHOLDER);

function jsonOf(score: object): string {
  let text = scoreJson.get(score);
  if (text === undefined) {
    text = JSON.stringify(score);
    scoreJson.set(score, text);
  }
  return text;
}

export function replyJson(data: unknown): string {
  const s = data as { object?: unknown; score?: unknown } | null;
  // Only a frozen score can keep its text: nothing can change it after.
  if (
    s === null ||
    typeof s !== 'object' ||
    s.object !== 'screening' ||
    typeof s.score !== 'object' ||
    s.score === null ||
    !Object.isFrozen(s.score)
  )
    return JSON.stringify(data);
  return JSON.stringify({ ...s, score: PLACEHOLDER }).replace(QUOTED, () => jsonOf(s.score as object));
}

/** What Fastify sends with a serialized JSON answer: a body made elsewhere goes with the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Send a JSON body already made (a reader thread's list page, `reader.readJson`): the bytes go
 * to the socket as they are, past the serializer above; the route's response schema still
 * documents them (the bytes are JSON.stringify of that shape, made in the thread).
 */
export function sendJsonBody<R extends { type(contentType: string): R; send(payload?: never): R }>(reply: R, body: Buffer): R {
  return reply.type(JSON_CONTENT_TYPE).send(body as never);
}
